import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/database";
import { countEvents } from "@/lib/db/events";
import { insertSession } from "@/lib/db/sessions";
import { agentReply, stateChange, userMessage } from "@/tests/helpers/events";
import { tempDir } from "@/tests/helpers/temp-dir";
import { EventLog, type LoggedEvent } from "./event-log";

const scratch = tempDir();
afterAll(scratch.cleanup);

function freshLog(name: string) {
  const db = openDatabase(path.join(scratch.dir, `${name}.db`));
  insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
  return { db, log: new EventLog(db) };
}

describe("EventLog", () => {
  it("assigns ids and times, projects messages, and notifies subscribers in order", () => {
    const { log } = freshLog("order");
    const seen: LoggedEvent[] = [];
    log.subscribe("a", (e) => seen.push(e));
    log.append("s", userMessage("hello", "r1"));
    log.append("s", stateChange("running", "r1"));
    log.append("s", agentReply("hi there", "r1"));
    expect(seen.map((e) => e.event.id)).toEqual([1, 2, 3]);
    expect(seen.every((e) => typeof e.event.timestamp === "string")).toBe(true);
    expect(seen.map((e) => e.message?.role ?? null)).toEqual(["user", null, "conversation"]);
    expect(seen[1]!.state).toMatchObject({ runId: "r1", agentState: "running" });
    expect(log.messagesAfter("s", 1).map((m) => m.content)).toEqual(["hi there"]);
  });

  it("refuses a malformed event before it takes a number", () => {
    const { db, log } = freshLog("bad");
    expect(() => log.append("s", { action: "run", args: {} } as never)).toThrow(/command/);
    expect(() => log.append("s", { action: "teleport", args: {} } as never)).toThrow();
    expect(countEvents(db, "s")).toBe(0);
    expect(log.append("s", userMessage("ok")).event.id).toBe(1);
  });

  it("keeps going when a subscriber throws", () => {
    const { log } = freshLog("throwing");
    const got: number[] = [];
    log.subscribe("bad", () => {
      throw new Error("boom");
    });
    log.subscribe("good", (e) => got.push(e.event.id!));
    const errors = console.error;
    console.error = () => undefined;
    try {
      log.append("s", userMessage("one"));
      log.append("s", userMessage("two"));
    } finally {
      console.error = errors;
    }
    expect(got).toEqual([1, 2]);
    expect(() => log.subscribe("good", () => undefined)).toThrow(/already/);
  });

  it("rebuilds a run's state from storage after a restart", () => {
    const { db, log } = freshLog("rebuild");
    log.append("s", userMessage("go", "r9"));
    log.append("s", stateChange("running", "r9"));
    log.append("s", stateChange("awaiting_user_input", "r9"));
    const before = log.runState("s", "r9");
    const reopened = new EventLog(db);
    expect(reopened.runState("s", "r9")).toEqual(before);
    expect(before.agentState).toBe("awaiting_user_input");
    // Appending through the new log continues from the rebuilt state, counted once.
    const next = reopened.append("s", stateChange("running", "r9"));
    expect(next.state?.agentState).toBe("running");
    expect(next.event.id).toBe(4);
  });
});

describe("EventLog run-state cache", () => {
  it("keeps only live runs cached, and still answers for ended ones from the log", () => {
    const { log } = freshLog("cache");
    const cache = (log as unknown as { runStates: Map<string, unknown> }).runStates;
    log.append("s", stateChange("running", "live"));
    log.append("s", stateChange("running", "done"));
    log.append("s", stateChange("finished", "done"));
    expect([...cache.keys()]).toEqual(["live"]);
    expect(log.runState("s", "done").agentState).toBe("finished");
    expect([...cache.keys()]).toEqual(["live"]);
    log.forgetRuns(["live", "done"]);
    expect(cache.size).toBe(0);
  });
});
