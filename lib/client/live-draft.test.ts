import { describe, expect, it } from "vitest";
import type { DraftWire } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { createDraftStore, draftTitle, isDraftWire, visibleDraft } from "./live-draft";

const draft = (over: Partial<DraftWire> = {}): DraftWire => ({ runId: "r1", agent: "planner", step: 2, afterSeq: 10, view: { thinking: "Look", code: "x = 1" }, ...over });
const state = (agentState: RunStateWire["agentState"], runId = "r1"): RunStateWire => ({ runId, agentState, agent: "planner", turn: 1, maxTurns: 10, tokens: { input: 0, output: 0 } });

describe("visibleDraft", () => {
  it("shows the draft of the live run while nothing newer than it is held", () => {
    expect(visibleDraft(draft(), 10, state("running"))).toEqual(draft());
    expect(visibleDraft(draft(), 4, state("loading"))).toEqual(draft());
  });

  it("the step's persisted event (a higher seq) replaces it, live or through sync", () => {
    expect(visibleDraft(draft(), 11, state("running"))).toBeNull();
  });

  it("is dropped when its run ends, is cancelled, fails or waits for the person", () => {
    for (const s of ["finished", "stopped", "error", "interrupted", "awaiting_user_input"] as const) {
      expect(visibleDraft(draft(), 10, state(s)), s).toBeNull();
    }
    expect(visibleDraft(null, 10, state("running"))).toBeNull();
  });

  it("stands while the page has not caught up with its run's state yet", () => {
    expect(visibleDraft(draft(), 10, null)).toEqual(draft());
    expect(visibleDraft(draft(), 10, state("finished", "r0"))).toEqual(draft());
  });

  it("a draft with nothing readable (a reply starting over) shows no bubble", () => {
    expect(visibleDraft(draft({ view: {} }), 10, state("running"))).toBeNull();
    expect(visibleDraft(draft({ view: { tool: "execute_python" } }), 10, state("running"))).toBeNull();
  });
});

describe("isDraftWire", () => {
  it("accepts a draft and refuses anything else", () => {
    expect(isDraftWire(draft())).toBe(true);
    expect(isDraftWire(draft({ agent: "browser", view: { thinking: "Click the field." } }))).toBe(true);
    expect(isDraftWire(null)).toBe(false);
    expect(isDraftWire({ ...draft(), step: "2" })).toBe(false);
    expect(isDraftWire({ ...draft(), agent: "hacker" })).toBe(false);
    expect(isDraftWire({ ...draft(), view: { code: 1 } })).toBe(false);
    expect(isDraftWire({ ...draft(), view: { html: "<b>" } })).toBe(false);
    expect(isDraftWire({ ...draft(), view: null })).toBe(false);
  });
});

describe("draftTitle", () => {
  it("says who is writing what", () => {
    expect(draftTitle(draft())).toBe("Planner · writing code");
    expect(draftTitle(draft({ view: { thinking: "t" } }))).toBe("Planner · thinking");
    expect(draftTitle(draft({ view: { question: "Which?" } }))).toBe("Planner · writing a question");
    expect(draftTitle(draft({ view: { tool: "submit_plan", plan: "p" } }))).toBe("Planner · writing the plan");
    expect(draftTitle(draft({ agent: "coder", view: { test: "print(1)" } }))).toBe("Coder · writing the test");
    expect(draftTitle(draft({ agent: "conversation", view: { response: "Hi" } }))).toBe("Argus");
    expect(draftTitle(draft({ agent: "browser", view: { tool: "computer", thinking: "The field is at the top." } }))).toBe("Browser · deciding the next step");
  });
});

describe("createDraftStore", () => {
  it("holds the newest draft and tells subscribers when it changes", () => {
    const store = createDraftStore();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    const d = draft();
    store.set(d);
    store.set(d);
    expect(store.get()).toBe(d);
    expect(calls).toBe(1);
    off();
    store.set(null);
    expect(calls).toBe(1);
    expect(store.get()).toBeNull();
  });
});
