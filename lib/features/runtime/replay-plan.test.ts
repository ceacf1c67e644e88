import { describe, expect, it } from "vitest";
import { cellObservation, delegateResult, personMessage, question, redoMark, stateChanged } from "@/lib/foundation/protocol/event-builders";
import type { ArgusEvent, ArgusEventInput } from "@/lib/foundation/protocol/events";
import type { ModelReply } from "@/lib/foundation/protocol/model-replies";
import { notebookCellsToReplay } from "./redo-log";
import { replayPlan } from "./replay-plan";
import { fromDict } from "./serialization";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";

/** A log: each input gets the next seq, as the event log would number it. */
function log(...inputs: ArgusEventInput[]): ArgusEvent[] {
  return inputs.map((e, i) => ({ ...fromDict(e), id: i + 1 }));
}

const call = (name: string, args: Record<string, unknown>): ModelReply => ({ kind: "tool_call", name, args: args as never, text: "", thinking: "" });
const said = (content: string, replies: ModelReply[] | null = [call("reply", { response: content })]): ArgusEventInput => ({ source: "agent", agent: "conversation", runId: "r", action: "message", args: { content }, ...(replies ? { model_replies: replies } : {}) });
const cell = (code: string): ArgusEventInput => ({ source: "agent", agent: "planner", runId: "r", action: "run_ipython", args: { code, thought: "" }, model_replies: [call("execute_python", { code, thinking: "" })] });
const delegate = (from: "conversation" | "coder", to: "coder" | "planner"): ArgusEventInput => ({ source: "agent", agent: from, runId: "r", action: "delegate", args: { agent: to, inputs: {}, thought: "" }, model_replies: [] });

describe("the plan for rebuilding a run's agents from its log", () => {
  it("pairs each step with its recorded replies and its answer, and leaves the step in flight unanswered at the end", () => {
    const events = log(
      personMessage("What is 41 plus one?", [], { runId: "r" }),
      stateChanged("running", "", { runId: "r" }),
      said("Let me work it out."),
      delegate("conversation", "coder"),
      delegate("coder", "planner"),
      cell("base = 41"),
      cellObservation("planner", { code: "base = 41", output: emptyCellOutput(), imageUrls: [], failed: false }, { runId: "r", cause: 6 }),
      cell("print(base + 1)"),
    );
    const plan = replayPlan(events, "r");
    if ("why" in plan) throw new Error(plan.why);
    expect(plan.openingSeq).toBe(1);
    expect(plan.text).toBe("What is 41 plus one?");
    expect(plan.before.map((e) => e.id)).toEqual([1]);
    expect(plan.steps.map((s) => [s.action.id, s.action.action, s.answer?.id ?? null])).toEqual([
      [3, "message", null],
      [4, "delegate", null],
      [5, "delegate", null],
      [6, "run_ipython", 7],
      [8, "run_ipython", null],
    ]);
    expect(plan.steps[3]!.replies).toEqual([call("execute_python", { code: "base = 41", thinking: "" })]);
  });

  it("answers a finished delegate with its result, and leaves out other runs' events and the marks", () => {
    const events = log(
      personMessage("first", [], { runId: "old" }),
      { ...said("old answer"), runId: "old" },
      personMessage("second", [], { runId: "r" }),
      delegate("conversation", "coder"),
      { source: "agent", agent: "coder", runId: "r", action: "finish", args: { outputs: {}, final_thought: "" }, model_replies: [] },
      { ...redoMark({ kind: "moved", from: null }, "moved"), runId: "r" },
      delegateResult("conversation", "done", {}, { runId: "r", cause: 5 }),
    );
    const plan = replayPlan(events, "r");
    if ("why" in plan) throw new Error(plan.why);
    expect(plan.before.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(plan.steps.map((s) => [s.action.id, s.answer?.id ?? null])).toEqual([
      [4, null],
      [5, 7],
    ]);
  });

  it("counts a cell the run was stopped in as unanswered, and its later run as its answer; only cells whose latest run succeeded are replayed into a new notebook", () => {
    const stopped = log(
      personMessage("hi", [], { runId: "r" }),
      cell("a = 1"),
      cellObservation("planner", { code: "a = 1", output: emptyCellOutput(), imageUrls: [], failed: false }, { runId: "r", cause: 2 }),
      cell("import time; time.sleep(60)"),
      cellObservation("planner", { code: "", output: emptyCellOutput(), imageUrls: [], failed: false, stopped: true }, { runId: "r", cause: 4 }),
    );
    const plan = replayPlan(stopped, "r");
    if ("why" in plan) throw new Error(plan.why);
    expect(plan.steps.map((s) => s.answer?.id ?? null)).toEqual([3, null]);
    expect(notebookCellsToReplay(stopped)).toEqual(["a = 1"]);
    const rerun = [...stopped, ...log(cellObservation("planner", { code: "", output: { ...emptyCellOutput(), stdout: "slept" }, imageUrls: [], failed: false }, { runId: "r", cause: 4 })).map((e) => ({ ...e, id: 6 }))];
    const again = replayPlan(rerun, "r");
    if ("why" in again) throw new Error(again.why);
    expect(again.steps.map((s) => s.answer?.id ?? null)).toEqual([3, 6]);
    expect(notebookCellsToReplay(rerun)).toEqual(["a = 1", "import time; time.sleep(60)"]);
  });

  it("starts after a Regenerate's mark: the agents were made from the log up to it", () => {
    const events = log(personMessage("hi", [], { runId: "a" }), { ...said("first"), runId: "a" }, { ...redoMark({ kind: "regenerate", from: 1 }, "again"), runId: "r" }, said("second"));
    const plan = replayPlan(events, "r");
    if ("why" in plan) throw new Error(plan.why);
    expect(plan.openingSeq).toBe(3);
    expect(plan.text).toBe("hi");
    expect(plan.before.map((e) => e.id)).toEqual([1]);
    expect(plan.steps.map((s) => s.action.id)).toEqual([4]);
  });

  it("cannot rebuild a run logged before replies were recorded (an older log), nor one with a step unanswered mid-run", () => {
    const older = log(personMessage("hi", [], { runId: "r" }), said("hello", null));
    expect(replayPlan(older, "r")).toEqual({ why: expect.stringMatching(/without the model's replies/) });
    const gap = log(personMessage("hi", [], { runId: "r" }), cell("a = 1"), cell("b = 2"));
    expect(replayPlan(gap, "r")).toEqual({ why: expect.stringMatching(/never answered/) });
    expect(replayPlan(log(stateChanged("running", "", { runId: "r" })), "r")).toEqual({ why: expect.stringMatching(/request/) });
  });

  it("leaves out a question asked from inside a step (a cell's tool review, the browser's safety check): it is no step of its own", () => {
    // Logged by askInRun while the cell runs: an agent action, but no model reply behind it.
    const review = question("planner", { kind: "tool_review", prompt: "Which tool?" }, { runId: "r" });
    const answer = { ...personMessage("{\"function_name\":\"a\"}", [], { runId: "r" }), cause: 3 };
    const done = cellObservation("planner", { code: "find()", output: { ...emptyCellOutput(), stdout: "found" }, imageUrls: [], failed: false }, { runId: "r", cause: 2 });
    const plan = replayPlan(log(personMessage("hi", [], { runId: "r" }), cell("find()"), review, answer, done, said("found it")), "r");
    if ("why" in plan) throw new Error(plan.why);
    expect(plan.steps.map((s) => [s.action.id, s.answer?.id ?? null])).toEqual([
      [2, 5],
      [6, null],
    ]);
    // Still in flight when the owner died: the cell is the step to do again, not the question.
    const inFlight = replayPlan(log(personMessage("hi", [], { runId: "r" }), cell("find()"), review), "r");
    if ("why" in inFlight) throw new Error(inFlight.why);
    expect(inFlight.steps.map((s) => [s.action.id, s.answer?.id ?? null])).toEqual([[2, null]]);
  });
});
