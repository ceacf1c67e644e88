/**
 * Server-renders the chat components (no DOM library needed) to pin the
 * safety rules — model text stays text, links are tamed — and the test ids
 * and transcript invariants the e2e suite relies on.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { InteractionEntry } from "@/lib/client/message-parts";
import { items as i, transcript } from "@/tests/helpers/chat-items";
import { InteractionCard } from "./interaction-card";
import { MarkdownText } from "./markdown-text";
import { MessageList } from "./message-list";
import { StatusLine } from "./status-line";

const html = (el: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(el);
const t = transcript();
const msg = (item: Parameters<typeof t.msg>[0]) => t.msg(item, { runId: "r", ts: "" });
const noop = () => {};

describe("Markdown safety", () => {
  it("shows raw HTML as text", () => {
    const out = html(createElement(MarkdownText, { text: 'hi <img src=x onerror="alert(1)"> <script>alert(2)</script>' }));
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<script");
    expect(out).toContain("&lt;script&gt;");
  });

  it("opens http(s) links in a new tab and leaves javascript: links unclickable", () => {
    const out = html(createElement(MarkdownText, { text: "[a](https://example.com) [b](javascript:alert(1)) [c](/api/files/1)" }));
    expect(out).toContain('href="https://example.com" target="_blank" rel="noopener noreferrer"');
    expect(out).not.toContain("javascript:");
    expect(out).toMatch(/<a href="\/api\/files\/1" class="[^"]*">c<\/a>/);
  });

  it("loads only this server's images", () => {
    const out = html(createElement(MarkdownText, { text: "![plot](/api/files/p) ![px](https://tracker.example/p.gif)" }));
    expect(out).toContain('src="/api/files/p"');
    expect(out).not.toContain('src="https://tracker.example');
  });

  it("renders fenced code with a copy button", () => {
    const out = html(createElement(MarkdownText, { text: "```python\nprint(1)\n```" }));
    expect(out).toContain("Copy");
    expect(out).toContain("print");
  });
});

describe("MessageList", () => {
  it("renders every message once, in seq order, with the test ids", () => {
    t.reset();
    const messages = [
      msg(i.user("count <b>coins</b>", ["/api/files/u1"])),
      msg(i.cell("planner", "look", "print(1)")),
      msg(i.printed("1", ["/api/files/o1"])),
      msg(i.question("Which method?", ["Hough", "Watershed"])),
      msg(i.answer("Watershed")),
      msg(i.finalCode("def f(): pass", "f()")),
      msg(i.error("Incorrect API key provided")),
      msg(i.reply("**24** coins")),
      msg(i.taskList(["Find <coins>"])),
    ];
    const out = html(createElement(MessageList, { messages, onAnswer: noop, onRetry: noop }));
    const seqs = [...out.matchAll(/data-seq="(\d+)"/g)].map((m) => Number(m[1]));
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const id of ["message-user", "message-planner", "step-block", "message-observation", "interaction-card", "message-interaction_response", "error-card", "message-conversation"]) {
      expect(out).toContain(`data-testid="${id}"`);
    }
    expect(out).toContain("count &lt;b&gt;coins&lt;/b&gt;");
    expect(out).toContain('src="/api/files/u1?variant=thumb"');
    expect(out).toContain("Planner · turn 1");
    expect(out).toContain("You answered: Watershed");
    expect(out).toContain("Task list:\n- [ ] Find &lt;coins&gt;");
    expect(out).toMatch(/>Retry</);
    expect(out).not.toContain("jump-to-latest");
  });

  it("enables only the pending interaction", () => {
    t.reset();
    const m = msg(i.question("?", ["Yes"])) as InteractionEntry;
    const pending = html(createElement(InteractionCard, { message: m, response: null, pending: true, onAnswer: noop }));
    const idle = html(createElement(InteractionCard, { message: m, response: null, pending: false, onAnswer: noop }));
    expect(pending).toMatch(/<button type="button" data-card-option="true" class="[^"]*">Yes<\/button>/);
    expect(idle).toMatch(/<button type="button" disabled="" data-card-option="true" class="[^"]*">Yes<\/button>/);
    // Only the waiting card names the shortcut that reaches it.
    expect(pending).toContain('aria-keyshortcuts="Alt+Shift+A"');
    expect(idle).not.toContain("aria-keyshortcuts");
  });

  it("draws a tool review with boxes, tabs and a slider", () => {
    t.reset();
    const payload = {
      image: "/api/files/img",
      width: 200,
      height: 100,
      candidates: [
        { function_name: "owlv2", args: {}, detections: [{ label: "coin", score: 0.9, bbox: [20, 10, 60, 50] }, { label: "coin", score: 0.02, bbox: [0, 0, 10, 10] }] },
        { function_name: "countgd", args: {}, detections: [] },
      ],
    };
    const m = msg(i.toolReview("Pick a tool", payload)) as InteractionEntry;
    const out = html(createElement(InteractionCard, { message: m, response: null, pending: true, onAnswer: noop }));
    expect(out).toContain('data-testid="tool-review-card"');
    expect(out).toContain('role="tab"');
    expect(out).toContain('type="range"');
    expect(out).toContain("left:10%;top:10%;width:20%;height:40%");
    expect(out).toMatch(/Showing 1 of 2 boxes/);
    expect(out).toContain("Use this tool");
  });
});

describe("StatusLine", () => {
  it("says what the run is doing", () => {
    const out = html(createElement(StatusLine, { state: { runId: "r", agentState: "running", agent: "planner", turn: 2, maxTurns: 10, tokens: { input: 1000, output: 234 } }, connected: true }));
    expect(out).toContain('data-testid="status-line"');
    expect(out).toContain("Planner is working · turn 2 of 10 · 1.2k tokens");
  });
});
