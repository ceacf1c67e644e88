import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { testDatabases } from "@/tests/helpers/test-database";
import { countEvents } from "@/lib/engines/db/events";
import { insertSession } from "@/lib/engines/db/sessions";
import { agentReply, stateChange, userMessage } from "@/tests/helpers/events";
import { tempDir } from "@/tests/helpers/temp-dir";
import { EventLog, type LoggedEvent } from "./event-log";

const scratch = tempDir();
const dbs = testDatabases();
afterAll(() => {
  scratch.cleanup();
  dbs.cleanup();
});

/** A log on the engine under test (ARGUS_TEST_DB). */
async function freshLog(name: string) {
  const db = await dbs.open(name);
  await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
  return { db, log: new EventLog(db) };
}

/** A log on a SQLite file, for what only SQLite can simulate (a full disk). */
async function sqliteLog(name: string) {
  const db = await openDatabase(path.join(scratch.dir, `${name}.db`));
  await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
  return { db, log: new EventLog(db) };
}

describe("EventLog", () => {
  it("assigns ids and times, projects messages, and notifies subscribers in order", async () => {
    const { log } = await freshLog("order");
    const seen: LoggedEvent[] = [];
    log.subscribe("a", (e) => seen.push(e));
    await log.append("s", userMessage("hello", "r1"));
    await log.append("s", stateChange("running", "r1"));
    await log.append("s", agentReply("hi there", "r1"));
    expect(seen.map((e) => e.event?.id)).toEqual([1, 2, 3]);
    expect(seen.every((e) => typeof e.event?.timestamp === "string")).toBe(true);
    expect(seen.map((e) => e.message?.role ?? null)).toEqual(["user", null, "conversation"]);
    expect(seen[1]!.state).toMatchObject({ runId: "r1", agentState: "running" });
    expect((await log.messagesAfter("s", 1)).map((m) => m.content)).toEqual(["hi there"]);
  });

  it("publishes appends made at once in seq order, each number once", async () => {
    const { log } = await freshLog("concurrent");
    const seen: number[] = [];
    log.subscribe("a", (e) => seen.push(e.event!.id!));
    // Not awaited one by one: the way a kernel notice and a run's step can land together.
    const appended = await Promise.all(Array.from({ length: 40 }, (_, i) => log.append("s", userMessage(`m${i}`, "r1"))));
    const ids = appended.map((a) => a.event.id!);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(seen).toEqual(ids);
    expect(log.newestWritten("s")).toBe(40);
    expect((await log.runState("s", "r1")).iteration).toBeDefined();
  });

  it("refuses a malformed event before it takes a number", async () => {
    const { db, log } = await freshLog("bad");
    expect(() => log.append("s", { action: "run", args: {} } as never)).toThrow(/command/);
    expect(() => log.append("s", { action: "teleport", args: {} } as never)).toThrow();
    expect(await countEvents(db, "s")).toBe(0);
    expect((await log.append("s", userMessage("ok"))).event.id).toBe(1);
  });

  it("keeps going when a subscriber throws", async () => {
    const { log } = await freshLog("throwing");
    const got: number[] = [];
    log.subscribe("bad", () => {
      throw new Error("boom");
    });
    log.subscribe("good", (e) => got.push(e.event!.id!));
    const errors = console.error;
    console.error = () => undefined;
    try {
      await log.append("s", userMessage("one"));
      await log.append("s", userMessage("two"));
    } finally {
      console.error = errors;
    }
    expect(got).toEqual([1, 2]);
    expect(() => log.subscribe("good", () => undefined)).toThrow(/already/);
  });

  it("rebuilds a run's state from storage after a restart", async () => {
    const { db, log } = await freshLog("rebuild");
    await log.append("s", userMessage("go", "r9"));
    await log.append("s", stateChange("running", "r9"));
    await log.append("s", stateChange("awaiting_user_input", "r9"));
    const before = await log.runState("s", "r9");
    const reopened = new EventLog(db);
    expect(await reopened.runState("s", "r9")).toEqual(before);
    expect(before.agentState).toBe("awaiting_user_input");
    // Appending through the new log continues from the rebuilt state, counted once.
    const next = await reopened.append("s", stateChange("running", "r9"));
    expect(next.state?.agentState).toBe("running");
    expect(next.event.id).toBe(4);
  });
});

describe("EventLog run-state cache", () => {
  it("keeps only live runs cached, and still answers for ended ones from the log", async () => {
    const { log } = await freshLog("cache");
    const cache = (log as unknown as { runStates: Map<string, unknown> }).runStates;
    await log.append("s", stateChange("running", "live"));
    await log.append("s", stateChange("running", "done"));
    await log.append("s", stateChange("finished", "done"));
    expect([...cache.keys()]).toEqual(["live"]);
    expect((await log.runState("s", "done")).agentState).toBe("finished");
    expect([...cache.keys()]).toEqual(["live"]);
    log.forgetRuns(["live", "done"]);
    expect(cache.size).toBe(0);
  });
});

describe("a run whose ending cannot be written", () => {
  it("ends in memory and tells subscribers at once, then is written when the database has room again", async () => {
    const { db, log } = await sqliteLog("full");
    await log.append("s", userMessage("hi", "r1"));
    await log.append("s", stateChange("running", "r1"));
    const heard: LoggedEvent[] = [];
    log.subscribe("client", (e) => heard.push(e));

    // SQLite answers SQLITE_FULL past max_page_count, exactly as on a full disk.
    const pages = (await db.one<{ page_count: number }>("PRAGMA page_count"))!.page_count;
    await db.exec(`PRAGMA max_page_count = ${pages}`);
    let full: unknown = null;
    // Big rows first, then ever smaller ones, so no page keeps room for even a short note.
    for (const size of [4000, 400, 40, 1]) {
      try {
        for (let i = 0; i < 500; i++) await log.append("s", agentReply("x".repeat(size), "r1"));
      } catch (error) {
        full = error;
      }
    }
    expect((full as { code?: string }).code).toBe("SQLITE_FULL");

    heard.length = 0;
    await log.endUnwritten("s", "r1", "The disk filled up.");
    expect(heard).toHaveLength(1);
    expect(heard[0]!.event).toBeNull();
    expect(heard[0]!.state).toMatchObject({ runId: "r1", agentState: "error", notice: "The disk filled up." });
    expect(log.latestRunState("s", null)).toMatchObject({ agentState: "error", notice: "The disk filled up." });
    // The run router asks this before recording an ending of its own (one cause, one notice).
    expect(log.hasUnwrittenEnding("s", "r1")).toBe(true);
    expect(log.hasUnwrittenEnding("s", "r0")).toBe(false);

    const note = (reason: string) => [
      { source: "environment", agent: "system", observation: "error", content: reason, extras: { error_id: "DISK_FULL" } },
      { source: "environment", agent: "system", observation: "agent_state_changed", content: "", extras: { agent_state: "error", reason } },
    ] as Parameters<EventLog["append"]>[1][];
    expect(((await log.writeUnwritten(note)) as { code?: string }).code).toBe("SQLITE_FULL");
    expect(log.unwrittenCount).toBe(1);

    await db.exec("PRAGMA max_page_count = 1000000");
    expect(await log.writeUnwritten(note)).toBeNull();
    expect(log.unwrittenCount).toBe(0);
    expect(log.hasUnwrittenEnding("s", "r1")).toBe(false);
    const written = (await log.eventsAfter("s", 0)).filter((e) => e.runId === "r1");
    const errors = written.filter((e) => "observation" in e && e.observation === "error");
    expect(errors.map((e) => ("content" in e ? e.content : ""))).toEqual(["The disk filled up."]);
    expect((await log.runState("s", "r1")).agentState).toBe("error");
    expect(log.latestRunState("s", await log.runState("s", "r1"))).not.toHaveProperty("notice");
  });
});
