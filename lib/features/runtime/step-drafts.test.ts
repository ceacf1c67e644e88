import { describe, expect, it } from "vitest";
import { EMPTY_DRAFT, type ReplyDraft } from "@/lib/engines/llm/draft";
import type { DraftWire } from "@/lib/foundation/protocol/socket";
import type { PacerClock } from "./draft-pacer";
import { draftGapMs, stepDrafts } from "./step-drafts";

/** Time stands still unless moved; timers only run when flushed or advanced past. */
function stillClock() {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const clock: PacerClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => void timers.splice(timers.indexOf(h as (typeof timers)[number]), 1),
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const t of [...timers].sort((a, b) => a.at - b.at)) {
        if (t.at > now) continue;
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    },
  };
}

const call = (toolInput: string): ReplyDraft => ({ ...EMPTY_DRAFT, toolName: "execute_python", toolInput });

function setup() {
  const c = stillClock();
  const sent: DraftWire[] = [];
  let seq = 7;
  const drafts = stepDrafts({ runId: "r1", agent: "planner", step: 3, lastSeq: () => seq, send: (d) => sent.push(d), clock: c.clock });
  return { ...c, sent, drafts, setSeq: (n: number) => (seq = n) };
}

describe("stepDrafts", () => {
  it("sends the first readable view at once, with the run, agent, step and the session's last seq", () => {
    const { drafts, sent } = setup();
    drafts.onDraft(call('{"thin'));
    expect(sent).toEqual([]);
    drafts.onDraft(call('{"thinking": "Lo'));
    expect(sent).toEqual([{ runId: "r1", agent: "planner", step: 3, afterSeq: 7, view: { tool: "execute_python", thinking: "Lo" } }]);
  });

  it("coalesces, then flush sends the final view before the step's event", () => {
    const { drafts, sent, advance } = setup();
    drafts.onDraft(call('{"thinking": "Lo'));
    drafts.onDraft(call('{"thinking": "Look", "code": "x'));
    drafts.onDraft(call('{"thinking": "Look", "code": "x = 1"}'));
    expect(sent).toHaveLength(1);
    drafts.flush();
    expect(sent.map((d) => d.view)).toEqual([
      { tool: "execute_python", thinking: "Lo" },
      { tool: "execute_python", thinking: "Look", code: "x = 1" },
    ]);
    advance(1_000);
    expect(sent).toHaveLength(2);
  });

  it("does not resend a view that did not change (a held-back escape, say)", () => {
    const { drafts, sent, advance } = setup();
    drafts.onDraft(call('{"code": "a'));
    advance(100);
    drafts.onDraft(call('{"code": "a\\'));
    advance(100);
    drafts.flush();
    expect(sent.map((d) => d.view.code)).toEqual(["a"]);
  });

  it("a restart sends an empty view, clearing what was shown", () => {
    const { drafts, sent, advance } = setup();
    drafts.onDraft(call('{"code": "bad'));
    advance(100);
    drafts.onDraft(EMPTY_DRAFT);
    expect(sent.map((d) => d.view)).toEqual([{ tool: "execute_python", code: "bad" }, {}]);
  });

  it("reads the last seq when each draft goes out", () => {
    const { drafts, sent, advance, setSeq } = setup();
    drafts.onDraft(call('{"code": "a'));
    setSeq(9);
    advance(100);
    drafts.onDraft(call('{"code": "ab'));
    expect(sent.map((d) => d.afterSeq)).toEqual([7, 9]);
  });

  it("close drops what is held", () => {
    const { drafts, sent, advance } = setup();
    drafts.onDraft(call('{"code": "a'));
    drafts.onDraft(call('{"code": "ab'));
    drafts.close();
    advance(100);
    drafts.flush();
    expect(sent.map((d) => d.view.code)).toEqual(["a"]);
  });

  it("waits longer after a large view, so a long reply cannot flood the socket", () => {
    expect(draftGapMs(100)).toBe(30);
    expect(draftGapMs(16_000)).toBe(30);
    expect(draftGapMs(160_000)).toBe(300);
  });
});

describe("a step with several calls", () => {
  it("sends the end of one reply before the next reply's first draft, even inside a gap", () => {
    const { drafts, sent } = setup();
    drafts.onDraft({ ...EMPTY_DRAFT, toolName: "write_code", toolInput: '{"code": "import cv2' });
    drafts.onDraft({ ...EMPTY_DRAFT, toolName: "write_code", toolInput: '{"code": "import cv2\\ndef count_coins(p):\\n    return 24"}' });
    drafts.onDraft({ ...EMPTY_DRAFT, toolName: "write_test", toolInput: '{"test": "print(count_coins(' });
    expect(sent.map((d) => d.view)).toEqual([
      { tool: "write_code", code: "import cv2" },
      { tool: "write_code", code: "import cv2\ndef count_coins(p):\n    return 24" },
    ]);
    drafts.flush();
    expect(sent.at(-1)!.view).toEqual({ tool: "write_test", test: "print(count_coins(" });
  });
});
