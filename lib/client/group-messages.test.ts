import { describe, expect, it } from "vitest";
import type { AgentMessageRole, StreamedMessage } from "@/lib/protocol/agent-message";
import { groupMessages, lastUnansweredInteractionSeq, type DisplayItem } from "./group-messages";

// The exact forms lib/runtime/projection.ts produces.
const cell = (thought: string, code: string) => {
  const c = `<execute_python>\n${code}\n</execute_python>`;
  return thought ? `<thinking>${thought}</thinking>\n${c}` : c;
};

describe("groupMessages", () => {
  let seq = 0;
  const msg = (role: AgentMessageRole, content = "", extra: Partial<StreamedMessage> = {}): StreamedMessage => ({
    seq: ++seq,
    runId: "r1",
    ts: "2025-01-01T00:00:00Z",
    role,
    content,
    ...extra,
  });
  const kinds = (items: DisplayItem[]) => items.map((i) => i.kind);

  it("pairs each step with the observation that follows and numbers turns per agent and run", () => {
    seq = 0;
    const msgs = [
      msg("user", "count coins"),
      msg("planner", cell("look", "print(1)")),
      msg("observation", "----- stdout -----\n1", { media: ["/api/files/p1"] }),
      msg("planner", cell("again", "print(2)")),
      msg("observation", "----- stdout -----\n2"),
      msg("planner", `<plan>${JSON.stringify({ plan: "p", instructions: [], code: "" })}</plan>`),
      msg("coder", cell("", "test()")),
      msg("observation", "ok"),
      msg("coder", "<final_code>f</final_code>\n<final_test>t</final_test>"),
      msg("final_observation", "done"),
    ];
    const items = groupMessages(msgs);
    expect(kinds(items)).toEqual(["message", "turn", "turn", "plan", "turn", "final_code", "message"]);
    const turns = items.filter((i) => i.kind === "turn");
    expect(turns.map((t) => [t.agent, t.index, t.observation?.seq])).toEqual([
      ["planner", 1, 3],
      ["planner", 2, 5],
      ["coder", 1, 8],
    ]);
    expect(items.map((i) => i.key)).toEqual(["seq-1", "seq-2", "seq-4", "seq-6", "seq-7", "seq-9", "seq-10"]);
  });

  it("keeps a turn's key when its observation arrives later (stable keys)", () => {
    seq = 0;
    const step = msg("planner", cell("t", "x"));
    const before = groupMessages([step]);
    expect(before[0]).toMatchObject({ kind: "turn", key: "seq-1", observation: null });
    const after = groupMessages([step, msg("observation", "o")]);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ kind: "turn", key: "seq-1", observation: { seq: 2 } });
  });

  it("pairs only an observation that directly follows, keeping the transcript in seq order", () => {
    seq = 0;
    const items = groupMessages([msg("planner", cell("", "a")), msg("user", "meanwhile"), msg("observation", "o")]);
    expect(kinds(items)).toEqual(["turn", "message", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("restarts turn numbers in a new run and never pairs across runs", () => {
    seq = 0;
    const items = groupMessages([
      msg("planner", cell("", "a"), { runId: "r1" }),
      msg("observation", "o", { runId: "r2" }),
      msg("planner", cell("", "b"), { runId: "r2" }),
    ]);
    expect(kinds(items)).toEqual(["turn", "message", "turn"]);
    expect(items.map((i) => (i.kind === "turn" ? i.index : 0))).toEqual([1, 0, 1]);
  });

  it("does not give a step an observation from after an error or another step", () => {
    seq = 0;
    const items = groupMessages([msg("planner", cell("", "a")), msg("error_observation", "kernel died"), msg("observation", "late")]);
    expect(kinds(items)).toEqual(["turn", "error", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("shows planner/coder notes (task lists) as plain messages", () => {
    seq = 0;
    const items = groupMessages([msg("planner", "Task list:\n- [ ] count"), msg("observation", "stray")]);
    expect(kinds(items)).toEqual(["message", "message"]);
  });

  it("attaches each answer to the interaction it answers and hides it from the list", () => {
    seq = 0;
    const q = '<interaction>{"kind":"question","prompt":"?","options":[]}</interaction>';
    const items = groupMessages([msg("interaction", q), msg("interaction_response", "yes"), msg("interaction", q)]);
    expect(kinds(items)).toEqual(["interaction", "interaction"]);
    expect(items[0]).toMatchObject({ response: { seq: 2, content: "yes" }, responseInline: true });
    expect(items[1]).toMatchObject({ response: null });
    expect(lastUnansweredInteractionSeq(items)).toBe(3);
  });

  it("gives an answer to the newest open interaction; a lone answer stays a message", () => {
    seq = 0;
    const q = '<interaction>{"kind":"question","prompt":"?","options":[]}</interaction>';
    const items = groupMessages([msg("interaction_response", "orphan"), msg("interaction", q), msg("interaction", q), msg("interaction_response", "a")]);
    expect(kinds(items)).toEqual(["message", "interaction", "interaction"]);
    expect(items[1]).toMatchObject({ response: null });
    expect(items[2]).toMatchObject({ response: { content: "a" }, responseInline: true });
    expect(lastUnansweredInteractionSeq(items)).toBeUndefined();
  });

  it("lists an answer separately when messages came between it and its question (still marks it answered)", () => {
    seq = 0;
    const q = '<interaction>{"kind":"question","prompt":"?","options":[]}</interaction>';
    const items = groupMessages([msg("interaction", q), msg("conversation", "note"), msg("interaction_response", "yes")]);
    expect(kinds(items)).toEqual(["interaction", "message", "message"]);
    expect(items[0]).toMatchObject({ response: { seq: 3 }, responseInline: false });
    expect(items.map((i) => i.key)).toEqual(["seq-1", "seq-2", "seq-3"]);
  });

  it("offers Retry on the latest error only, until the person speaks again", () => {
    seq = 0;
    const items = groupMessages([msg("error_observation", "one"), msg("user", "again"), msg("error_observation", "two"), msg("conversation", "sorry")]);
    expect(items.filter((i) => i.kind === "error").map((i) => i.kind === "error" && i.retryable)).toEqual([false, true]);
    const later = groupMessages([msg("error_observation", "x"), msg("user", "new question")]);
    expect(later.some((i) => i.kind === "error" && i.retryable)).toBe(false);
  });

  it("orders by seq and lets a re-sent seq replace the old copy", () => {
    const m = (s: number, content: string): StreamedMessage => ({ seq: s, runId: null, ts: "", role: "user", content });
    const items = groupMessages([m(2, "b"), m(1, "a"), m(2, "b2")]);
    expect(items.map((i) => (i.kind === "message" ? i.message.content : ""))).toEqual(["a", "b2"]);
  });

  const browserStep = (summary: string, tool = "computer") => `<thinking>why</thinking>\n<browser_action>${JSON.stringify({ tool, summary, pointer: null })}</browser_action>`;
  const browserSeen = (action: string) =>
    `<browser_observation>${JSON.stringify({ url: "http://lab/", title: "Lab", action, error: "", pointer: null, viewport: [800, 600], tabs: 1 })}</browser_observation>\nok`;

  it("pairs a browser action with its screenshot and numbers the browser's steps per run", () => {
    seq = 0;
    const items = groupMessages([
      msg("user", "browse"),
      msg("browser", browserStep("goto(http://lab/)", "goto")),
      msg("observation", browserSeen("")),
      msg("browser", browserStep("click(1, 2)")),
      msg("observation", browserSeen("click(1, 2)")),
      msg("browser", browserStep("It has 3 screws.", "done")),
      // A planner cell's observation after "done" is not the browser's.
      msg("observation", "----- stdout -----\n3"),
    ]);
    expect(kinds(items)).toEqual(["message", "browser", "browser", "browser", "message"]);
    const steps = items.filter((i) => i.kind === "browser");
    expect(steps.map((s) => [s.index, s.step?.seq, s.observation?.seq, s.asked])).toEqual([
      [1, 2, 3, false],
      [2, 4, 5, false],
      [3, 6, undefined, false],
    ]);
  });

  it("lists the screenshot after a safety card as its own browser item, in seq order", () => {
    seq = 0;
    const card = `<interaction>${JSON.stringify({ kind: "safety", prompt: "Type?", options: ["Confirm", "Refuse"], payload: {} })}</interaction>`;
    const items = groupMessages([
      msg("browser", browserStep("type(secret)")),
      msg("interaction", card),
      msg("interaction_response", "Refuse"),
      msg("observation", browserSeen("type(secret)")),
    ]);
    expect(kinds(items)).toEqual(["browser", "interaction", "browser"]);
    expect(items[0]).toMatchObject({ asked: true, observation: null });
    expect(items[1]).toMatchObject({ response: { seq: 3 }, responseInline: true });
    expect(items[2]).toMatchObject({ step: null, observation: { seq: 4 }, index: 0 });
  });

  it("does not give a browser screenshot to a planner step, nor a cell's output to a browser step", () => {
    seq = 0;
    const items = groupMessages([
      msg("planner", cell("look", "print(1)")),
      msg("observation", browserSeen("")),
      msg("browser", browserStep("click(1, 2)")),
      msg("observation", "----- stdout -----\n1"),
    ]);
    expect(kinds(items)).toEqual(["turn", "browser", "browser", "message"]);
  });

  it("is empty for no messages", () => {
    expect(groupMessages([])).toEqual([]);
    expect(lastUnansweredInteractionSeq([])).toBeUndefined();
  });
});
