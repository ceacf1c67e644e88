import { describe, expect, it } from "vitest";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import { cellObservation, personMessage, redoMark, stateChanged } from "@/lib/foundation/protocol/event-builders";
import type { ArgusEvent, ArgusEventInput } from "@/lib/foundation/protocol/events";
import { toChatItem } from "./projection";
import { eventsAgentsSee, notebookCellsToReplay, personMessages, requestOfRun, uploadIdsOf, whyNotContinuable, whyNotEditable, whyNotRegenerable } from "./redo-log";
import { fromDict } from "./serialization";

/** A log: each input gets the next seq, as the event log would number it. */
function log(...inputs: ArgusEventInput[]): ArgusEvent[] {
  return inputs.map((e, i) => ({ ...fromDict(e), id: i + 1 }));
}

const reply = (text: string, runId: string): ArgusEventInput => ({ source: "agent", agent: "conversation", runId, action: "message", args: { content: text } });
const cell = (code: string, runId: string, agent: "planner" | "coder" = "planner"): ArgusEventInput => ({ source: "agent", agent, runId, action: "run_ipython", args: { code, thought: "" } });

describe("the events agents still see", () => {
  it("leave out what a Regenerate superseded (the message stays) and the marks themselves", () => {
    const events = log(personMessage("hi", [], { runId: "a" }), reply("first answer", "a"), stateChanged("finished", "", { runId: "a" }), redoMark({ kind: "regenerate", from: 1 }, "again", { runId: "b" }), reply("second answer", "b"));
    expect(eventsAgentsSee(events).map((e) => e.id)).toEqual([1, 5]);
  });

  it("leave out an edited message and everything after it, up to the edit", () => {
    const events = log(
      personMessage("one", [], { runId: "a" }),
      reply("answer one", "a"),
      personMessage("two", [], { runId: "b" }),
      reply("answer two", "b"),
      redoMark({ kind: "edit", from: 3 }, "edited", { runId: "c" }),
      personMessage("two, better", [], { runId: "c" }),
    );
    expect(eventsAgentsSee(events).map((e) => e.id)).toEqual([1, 2, 6]);
    expect(personMessages(events).map((m) => m.args.content)).toEqual(["one", "two, better"]);
    expect(whyNotEditable(events, 3)).toMatch(/earlier version/);
    expect(whyNotEditable(events, 6)).toBeNull();
    expect(whyNotEditable(events, 2)).not.toBeNull();
    expect(whyNotRegenerable(events, 1)).toMatch(/latest/);
    expect(whyNotRegenerable(events, 6)).toBeNull();
  });

  it("shows each mark in the chat as a redo item", () => {
    expect(toChatItem(fromDict(redoMark({ kind: "continue", from: null }, "Continuing.")))).toEqual({ type: "redo", kind: "continue", from: null, text: "Continuing." });
    expect(toChatItem(fromDict({ observation: "null", content: "", extras: {} }))).toBeNull();
  });
});

describe("continuing a run", () => {
  const failed = log(personMessage("hi", ["/api/files/u-1"], { runId: "a" }), reply("on it", "a"), stateChanged("error", "model down", { runId: "a" }));

  it("is allowed for the newest run once it failed, was stopped or was interrupted", () => {
    expect(whyNotContinuable(failed, "a")).toBeNull();
    expect(whyNotContinuable(log(personMessage("hi", [], { runId: "a" }), stateChanged("stopped", "", { runId: "a" })), "a")).toBeNull();
  });

  it("is refused for a finished run, a running one, or an older one", () => {
    expect(whyNotContinuable(log(personMessage("hi", [], { runId: "a" }), stateChanged("finished", "", { runId: "a" })), "a")).toMatch(/Regenerate/);
    expect(whyNotContinuable(log(personMessage("hi", [], { runId: "a" }), stateChanged("running", "", { runId: "a" })), "a")).toMatch(/still going/);
    expect(whyNotContinuable([...failed, ...log(personMessage("x", [], { runId: "b" })).map((e) => ({ ...e, id: 9 }))], "a")).toMatch(/latest/);
  });

  it("finds the run's message and its uploads", () => {
    const request = requestOfRun(failed, "a")!;
    expect(request.args.content).toBe("hi");
    expect(uploadIdsOf(request)).toEqual(["u-1"]);
  });
});

describe("the notebook cells to run again in a new kernel", () => {
  it("are the shared notebook's cells that ran and did not fail, in order; never a coder's isolated test", () => {
    const events = log(
      cell("x = 1", "a"), // 1
      { ...cellObservation("planner", { code: "x = 1", output: emptyCellOutput(), imageUrls: [], failed: false }, { runId: "a", cause: 1 }) },
      cell("1/0", "a"), // 3
      { ...cellObservation("planner", { code: "1/0", output: { ...emptyCellOutput(), error: "ZeroDivisionError" }, imageUrls: [], failed: true }, { runId: "a", cause: 3 }) },
      cell("test()", "a", "coder"), // 5
      { ...cellObservation("coder", { code: "test()", output: { ...emptyCellOutput(), stdout: "ok" }, imageUrls: [], failed: false }, { runId: "a", cause: 5 }) },
      cell("y = x + 1", "a"), // 7
      { ...cellObservation("planner", { code: "y = x + 1", output: emptyCellOutput(), imageUrls: [], failed: false }, { runId: "a", cause: 7 }) },
      cell("never answered", "a"), // 9: the run stopped inside it
    );
    expect(notebookCellsToReplay(events)).toEqual(["x = 1", "y = x + 1"]);
  });
});
