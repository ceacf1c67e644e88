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
    expect(seen.map((e) => e.event?.id)).toEqual([1, 2, 3]);
    expect(seen.every((e) => typeof e.event?.timestamp === "string")).toBe(true);
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
    log.subscribe("good", (e) => got.push(e.event!.id!));
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

describe("a run whose ending cannot be written", () => {
  it("ends in memory and tells subscribers at once, then is written when the database has room again", () => {
    const { db, log } = freshLog("full");
    log.append("s", userMessage("hi", "r1"));
    log.append("s", stateChange("running", "r1"));
    const heard: LoggedEvent[] = [];
    log.subscribe("client", (e) => heard.push(e));

    // SQLite answers SQLITE_FULL past max_page_count, exactly as on a full disk.
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    let full: unknown = null;
    // Big rows first, then ever smaller ones, so no page keeps room for even a short note.
    for (const size of [4000, 400, 40, 1]) {
      try {
        for (let i = 0; i < 500; i++) log.append("s", agentReply("x".repeat(size), "r1"));
      } catch (error) {
        full = error;
      }
    }
    expect((full as { code?: string }).code).toBe("SQLITE_FULL");

    heard.length = 0;
    log.endUnwritten("s", "r1", "The disk filled up.");
    expect(heard).toHaveLength(1);
    expect(heard[0]!.event).toBeNull();
    expect(heard[0]!.state).toMatchObject({ runId: "r1", agentState: "error", notice: "The disk filled up." });
    expect(log.latestRunState("s", null)).toMatchObject({ agentState: "error", notice: "The disk filled up." });

    const note = (reason: string) => [
      { source: "environment", agent: "system", observation: "error", content: reason, extras: { error_id: "DISK_FULL" } },
      { source: "environment", agent: "system", observation: "agent_state_changed", content: "", extras: { agent_state: "error", reason } },
    ] as Parameters<EventLog["append"]>[1][];
    expect((log.writeUnwritten(note) as { code?: string }).code).toBe("SQLITE_FULL");
    expect(log.unwrittenCount).toBe(1);

    db.pragma("max_page_count = 1000000");
    expect(log.writeUnwritten(note)).toBeNull();
    expect(log.unwrittenCount).toBe(0);
    const written = log.eventsAfter("s", 0).filter((e) => e.runId === "r1");
    const errors = written.filter((e) => "observation" in e && e.observation === "error");
    expect(errors.map((e) => ("content" in e ? e.content : ""))).toEqual(["The disk filled up."]);
    expect(log.runState("s", "r1").agentState).toBe("error");
    expect(log.latestRunState("s", log.runState("s", "r1"))).not.toHaveProperty("notice");
  });
});
