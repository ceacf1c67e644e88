/** Server-renders the live draft bubble: what it shows, its test ids, and model text kept as text. */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { items, streamed } from "@/tests/helpers/chat-items";
import { describe, expect, it } from "vitest";
import { createDraftStore } from "@/lib/client/live-draft";
import type { DraftWire } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { LiveDraftBubble } from "./live-draft-bubble";
import { MessageList } from "./message-list";

const running: RunStateWire = { runId: "r1", agentState: "running", agent: "planner", turn: 1, maxTurns: 10, tokens: { input: 0, output: 0 } };
const draft = (over: Partial<DraftWire>): DraftWire => ({ runId: "r1", agent: "planner", step: 2, afterSeq: 5, view: {}, ...over });

function render(d: DraftWire | null, heldLastSeq = 5, state: RunStateWire | null = running): string {
  const drafts = createDraftStore();
  drafts.set(d);
  return renderToStaticMarkup(createElement(LiveDraftBubble, { drafts, heldLastSeq, state }));
}

describe("LiveDraftBubble", () => {
  it("shows a planner step being written: title, thinking and the code in the code styling", () => {
    const out = render(draft({ view: { tool: "execute_python", thinking: "Segment the coins.", code: "import cv2\nimg = load_image(" } }));
    expect(out).toContain('data-testid="live-draft"');
    expect(out).toContain('data-agent="planner"');
    expect(out).toContain("Planner · writing code");
    expect(out).toContain("Writing…");
    expect(out).toContain('data-testid="live-draft-thinking"');
    expect(out).toContain("Segment the coins.");
    expect(out).toMatch(/data-testid="live-draft-code".*<figure/);
    expect(out).toContain("load_image");
    // Not part of the transcript: the e2e transcript check counts data-seq.
    expect(out).not.toContain("data-seq");
  });

  it("shows the conversation's reply as Markdown, raw HTML as text", () => {
    const out = render(draft({ agent: "conversation", view: { tool: "reply", response: "There are **24** coins <script>alert(1)</script>" } }));
    expect(out).toContain('data-testid="live-draft-response"');
    expect(out).toContain("<strong>24</strong>");
    expect(out).not.toContain("<script");
    expect(out).toContain("&lt;script&gt;");
  });

  it("shows nothing once the step's event is held, or when the run is over", () => {
    const d = draft({ view: { thinking: "t" } });
    expect(render(d)).toContain("live-draft");
    expect(render(d, 6)).toBe("");
    expect(render(d, 5, { ...running, agentState: "stopped" })).toBe("");
    expect(render(null)).toBe("");
  });

  it("sits at the end of the message list", () => {
    const drafts = createDraftStore();
    drafts.set(draft({ afterSeq: 1, view: { thinking: "Looking." } }));
    const messages = [streamed(items.user("How many coins?"), 1)];
    const out = renderToStaticMarkup(createElement(MessageList, { messages, onAnswer: () => {}, onRetry: () => {}, live: { drafts, state: running } }));
    expect(out.indexOf("How many coins?")).toBeLessThan(out.indexOf('data-testid="live-draft"'));
  });
});
