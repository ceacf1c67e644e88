/**
 * Postgres-only guarantees, against real Postgres servers this file starts
 * (tests/helpers/postgres.ts), whatever ARGUS_TEST_DB says: several
 * independent appenders (other processes, other pools) writing to one session
 * at once never share or skip a seq; an unreachable database answers 503 in
 * plain words over HTTP and on the socket, and leaves nothing half-written.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFor, openDatabase } from "@/lib/engines/db/database";
import { countEvents, eventsAfter, lastSeq } from "@/lib/engines/db/events";
import { insertSession } from "@/lib/engines/db/sessions";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import { EventLog } from "@/lib/features/runtime/event-log";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { userMessage } from "@/tests/helpers/events";
import { startPostgres, type TestPostgres } from "@/tests/helpers/postgres";
import { tempDir } from "@/tests/helpers/temp-dir";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

describe("several instances on one Postgres", () => {
  it("migrate an empty database once when they start together", async () => {
    const url = await server.createDatabase("together");
    const opened = await Promise.all([openDatabase(url), openDatabase(url), openDatabase(url)]);
    const rows = await opened[0]!.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((r) => r.version)).toEqual(migrationsFor(opened[0]!).map((m) => m.version));
    for (const db of opened) await db.close();
  });


  it("never share, skip or reorder a seq when processes and pools append to one session at once", async () => {
    const url = await server.createDatabase("appenders");
    const setup = await openDatabase(url);
    await insertSession(setup, { id: "s", tokenHash: "h", browserHash: null, now: "t" });

    // Three other processes (as three Argus instances would be) and two more
    // pools in this process, all started before any finishes.
    const PER = 60;
    const processes = ["p1", "p2", "p3"].map((tag) =>
      run(process.execPath, ["--import", "tsx", "tests/helpers/append-worker.ts", url, "s", String(PER), tag], { cwd: ROOT }).then(
        (out) => JSON.parse(out.stdout) as number[],
      ),
    );
    const pools = await Promise.all(["q1", "q2"].map(() => openDatabase(url)));
    const local = pools.map(async (db, k) => {
      const log = new EventLog(db);
      const heard: number[] = [];
      log.subscribe("test", (e) => heard.push(e.event!.id!));
      await Promise.all(Array.from({ length: PER }, (_, i) => log.append("s", userMessage(`q${k} ${i}`))));
      return heard;
    });
    const heardBy = await Promise.all([...processes, ...local]);
    for (const db of pools) await db.close();

    const total = PER * heardBy.length;
    const all = heardBy.flat();
    expect(new Set(all).size).toBe(all.length); // no seq handed out twice
    expect([...all].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1)); // none skipped
    for (const heard of heardBy) {
      expect(heard).toHaveLength(PER);
      // Each appender's subscribers heard its events in seq order.
      expect(heard).toEqual([...heard].sort((a, b) => a - b));
    }
    const rows = await eventsAfter(setup, "s", 0);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(await lastSeq(setup, "s")).toBe(total);
    await setup.close();
  });
});

describe("Postgres unreachable", () => {
  it("leaves no half-written append when the server stops mid-transaction, and numbering resumes without a gap", async () => {
    const url = await server.createDatabase("burst");
    const db = await openDatabase(url);
    await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
    const log = new EventLog(db);
    for (let i = 0; i < 20; i++) await log.append("s", userMessage(`before ${i}`));

    // Another connection holds the session row, so the next append stops
    // inside its transaction (BEGIN done, waiting at the seq bump): the server
    // is then stopped with that transaction open.
    const locker = new pg.Client({ connectionString: url });
    locker.on("error", () => undefined);
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM sessions WHERE id = 's' FOR UPDATE");
    const burst = Array.from({ length: 10 }, (_, i) => log.append("s", userMessage(`during ${i}`)).then(() => null, (e: unknown) => e));
    for (;;) {
      // Inside a transaction Postgres keeps serving the first statistics snapshot
      // it read (stats_fetch_consistency = cache): clear it, or the wait is never seen.
      await locker.query("SELECT pg_stat_clear_snapshot()");
      const waiting = await locker.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE sessions%'");
      if (waiting.rowCount) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await server.halt();
    const outcomes = await Promise.all(burst);
    await server.start();

    for (const error of outcomes) {
      expect(error).toMatchObject({ code: "unavailable:db", message: expect.stringMatching(/database cannot be reached/) });
    }
    expect(await countEvents(db, "s")).toBe(20);
    expect(await lastSeq(db, "s")).toBe(20);
    expect((await eventsAfter(db, "s", 0)).map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await log.append("s", userMessage("after"))).event.id).toBe(21);
    await db.close();
  });

  it("answers 503 with a readable error over HTTP and on the socket, and recovers when it is back", async () => {
    const url = await server.createDatabase("http");
    const scratch = tempDir();
    let argus: RunningServer | null = null;
    const sockets: Socket[] = [];
    try {
      argus = await startArgus({ dataDir: scratch.dir, env: { DATABASE_URL: url } });
      const call = api(argus.url);
      const s = (await call("POST", "/api/sessions")).json as { id: string; token: string };
      const sock = connect(argus.url, { auth: { sessionId: s.id, token: s.token }, transports: ["websocket"], reconnection: false, forceNew: true });
      sockets.push(sock);
      await new Promise<void>((resolve, reject) => {
        sock.once("connect", () => resolve());
        sock.once("connect_error", reject);
      });

      await server.halt();
      for (const [method, route] of [["GET", `/api/sessions/${s.id}`], ["POST", "/api/sessions"], ["PATCH", `/api/sessions/${s.id}`]] as const) {
        const res = await call(method, route, { token: s.token, ...(method === "PATCH" ? { body: { title: "renamed" } } : {}) });
        expect(res.status, `${method} ${route}`).toBe(503);
        expect(res.json.error).toMatchObject({ code: "unavailable:db", message: expect.stringMatching(/database cannot be reached/) });
        expect(res.headers.get("retry-after")).toBe("5");
      }
      const health = await call("GET", "/api/health");
      expect(health.status).toBe(503);
      expect(health.json.db).toBe("down");
      const ack = (await sock.timeout(10_000).emitWithAck("sync", { afterSeq: 0 })) as SyncAck;
      expect(ack).toMatchObject({ ok: false, error: { code: "unavailable:db", message: expect.stringMatching(/database cannot be reached/) } });
      const late = connect(argus.url, { auth: { sessionId: s.id, token: s.token }, transports: ["websocket"], reconnection: false, forceNew: true });
      sockets.push(late);
      const refused = await new Promise<Error & { data?: { code?: string } }>((resolve, reject) => {
        late.once("connect", () => reject(new Error("connected while the database was down")));
        late.once("connect_error", (e) => resolve(e as Error & { data?: { code?: string } }));
      });
      expect(refused.data?.code).toBe("unavailable:db");
      expect(refused.message).toMatch(/database cannot be reached/);

      await server.start();
      const view = await call("GET", `/api/sessions/${s.id}`, { token: s.token });
      expect(view.status).toBe(200);
      // The rename refused while the database was down did not half-happen.
      expect(view.json.title).toBeNull();
      expect((await call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { title: "renamed" } })).status).toBe(200);
      expect(((await sock.timeout(10_000).emitWithAck("sync", { afterSeq: 0 })) as SyncAck).ok).toBe(true);
    } finally {
      for (const sock of sockets) sock.disconnect();
      await argus?.kill();
      scratch.cleanup();
    }
  });
});

describe("Postgres not there at start", () => {
  it("stops Argus with a sentence that names the database, never its password", async () => {
    const scratch = tempDir();
    try {
      const url = `postgres://argus:s3cret@127.0.0.1:${server.port}/missing_db_never_created`;
      await server.halt();
      const error = await startArgus({ dataDir: scratch.dir, env: { DATABASE_URL: url } }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      await server.start();
      expect(error?.message).toMatch(/Cannot reach the Postgres database at postgres:\/\/argus:\*\*\*@127\.0\.0\.1/);
      expect(error?.message).not.toContain("s3cret");
    } finally {
      scratch.cleanup();
    }
  });
});
