import { describe, expect, it } from "vitest";
import { DISK_FULL_RUN_ENDED } from "@/lib/engines/db/disk-space";
import type { ArgusEventInput } from "@/lib/foundation/protocol/events";
import { endingOfError, RunEnded, runEndingEvents, runEndingReason, writeRunEnding, type RunEnding } from "./run-ending";

/** An ending's events as (note, state) pairs, the way the chat and the run's state read them. */
function shape(ending: RunEnding) {
  return runEndingEvents(ending).map((e) =>
    "observation" in e && e.observation === "error"
      ? { note: e.content, errorId: e.extras.error_id }
      : "observation" in e && e.observation === "agent_state_changed"
        ? { state: e.extras.agent_state, reason: e.extras.reason }
        : { other: e },
  );
}

describe("runEndingEvents", () => {
  it("finishes and stops-by-person with the state alone, no note in the chat", () => {
    expect(shape({ kind: "finished" })).toEqual([{ state: "finished", reason: "" }]);
    expect(shape({ kind: "stopped_by_person" })).toEqual([{ state: "stopped", reason: "Stopped by you." }]);
  });

  it("says why a budget or stuck agents ended the run, then stops it (budget) or fails it (stuck)", () => {
    expect(shape({ kind: "budget", reason: "The run stopped after 3 steps, its limit. Ask again to continue." })).toEqual([
      { note: "The run stopped after 3 steps, its limit. Ask again to continue.", errorId: "BUDGET" },
      { state: "stopped", reason: "The run stopped after 3 steps, its limit. Ask again to continue." },
    ]);
    expect(shape({ kind: "stuck", reason: "repeating" })).toEqual([
      { note: "repeating", errorId: "RUN_STOPPED" },
      { state: "error", reason: "repeating" },
    ]);
  });

  it("writes a failure with its own error kind, and a full disk in its own words", () => {
    expect(shape({ kind: "failed", message: "The model refused.", errorId: "MODEL_ERROR" })).toEqual([
      { note: "The model refused.", errorId: "MODEL_ERROR" },
      { state: "error", reason: "The model refused." },
    ]);
    expect(shape({ kind: "disk_full" })).toEqual([
      { note: DISK_FULL_RUN_ENDED, errorId: "DISK_FULL" },
      { state: "error", reason: DISK_FULL_RUN_ENDED },
    ]);
  });

  it("marks a run interrupted by a server stop, a lost owner or a lost database, each saying which", () => {
    const server = shape({ kind: "server_stopped" });
    const owner = shape({ kind: "owner_lost" });
    const database = shape({ kind: "database_lost" });
    expect(server[0]).toMatchObject({ errorId: "INTERRUPTED", note: expect.stringContaining("the Argus server stopped") });
    expect(owner[0]).toMatchObject({ errorId: "INTERRUPTED", note: expect.stringContaining("stopped responding") });
    expect(database[0]).toMatchObject({ errorId: "DATABASE_UNAVAILABLE", note: expect.stringContaining("database could not be reached") });
    for (const events of [server, owner, database]) {
      expect(events).toHaveLength(2);
      // The state carries the same words the note shows, so the run's notice reads the same.
      expect(events[1]).toEqual({ state: "interrupted", reason: (events[0] as { note: string }).note });
    }
  });

  it("says why a run cut off could not be continued, when a resume was tried and failed", () => {
    const owner = shape({ kind: "owner_lost", why: "step 12 was logged without the model's replies (an older log)" });
    expect(owner[0]).toEqual({
      errorId: "INTERRUPTED",
      note: "This run was interrupted because the Argus instance running it stopped responding, and another instance could not continue it (step 12 was logged without the model's replies (an older log)). Everything before this point is saved; send your message again to continue.",
    });
    const server = shape({ kind: "server_stopped", why: "resuming runs is off (ARGUS_RESUME_RUNS=off)." });
    expect((server[0] as { note: string }).note).toBe(
      "This run was interrupted because the Argus server stopped, and the restarted server could not continue it (resuming runs is off (ARGUS_RESUME_RUNS=off)). Nothing before this point was lost; send your message again to continue.",
    );
    expect(server[1]).toEqual({ state: "interrupted", reason: (server[0] as { note: string }).note });
  });

  it("gives the final state's reason as the run's notice", () => {
    expect(runEndingReason({ kind: "disk_full" })).toBe(DISK_FULL_RUN_ENDED);
    expect(runEndingReason({ kind: "finished" })).toBe("");
  });
});

describe("endingOfError", () => {
  it("keeps the ending a run was stopped with", () => {
    expect(endingOfError(new RunEnded({ kind: "budget", reason: "out of tokens" }), true)).toEqual({ kind: "budget", reason: "out of tokens" });
  });

  it("reads an aborted signal or a cancelled call as the person's stop", () => {
    expect(endingOfError(new Error("aborted"), true)).toEqual({ kind: "stopped_by_person" });
    expect(endingOfError(Object.assign(new Error("x"), { kind: "cancelled" }), false)).toEqual({ kind: "stopped_by_person" });
  });

  it("recognises a full disk, and otherwise fails with the error's message and kind", () => {
    expect(endingOfError(Object.assign(new Error("write failed"), { cause: { code: "SQLITE_FULL" } }), false)).toEqual({ kind: "disk_full" });
    expect(endingOfError(Object.assign(new Error("bad reply"), { kind: "MODEL_ERROR" }), false)).toEqual({ kind: "failed", message: "bad reply", errorId: "MODEL_ERROR" });
    expect(endingOfError("plain", false)).toEqual({ kind: "failed", message: "plain", errorId: "ERROR" });
  });
});

describe("writeRunEnding", () => {
  it("appends the ending's events in order, each under the run's id", async () => {
    const appended: ArgusEventInput[] = [];
    await writeRunEnding(async (e) => appended.push(e), "run-1", { kind: "owner_lost" });
    expect(appended.map((e) => [e.runId, "observation" in e ? e.observation : null])).toEqual([
      ["run-1", "error"],
      ["run-1", "agent_state_changed"],
    ]);
  });

  it("stops at the first append that fails (the server began closing mid-ending)", async () => {
    let calls = 0;
    const refusing = async () => {
      calls++;
      throw new Error("closing");
    };
    await expect(writeRunEnding(refusing, "run-1", { kind: "budget", reason: "r" })).rejects.toThrow("closing");
    expect(calls).toBe(1);
  });
});
