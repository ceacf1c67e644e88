import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/errors";
import { createRedisClient, type RedisClient } from "@/lib/scale/redis";
import { RunCommandBus } from "@/lib/scale/run-command-bus";
import { commandChannel, type RunCommand } from "@/lib/scale/run-commands";
import { haveRedis, startRedis, type RunningRedis } from "@/tests/helpers/redis-server";

/** Run commands between two buses over a real redis-server (started here, on loopback). */
const SESSION = "11111111-1111-4111-8111-111111111111";
let redis: RunningRedis;
const clients: RedisClient[] = [];
const buses: RunCommandBus[] = [];
const logs: string[] = [];

async function bus(id: string, handler: (c: RunCommand) => Promise<{ runId: string; resumed?: boolean } | { batchId: string }>) {
  const client = createRedisClient(redis.url, (l) => logs.push(l));
  await client.connect();
  clients.push(client);
  const b = new RunCommandBus(client, id, (l) => logs.push(l));
  await b.start(handler);
  buses.push(b);
  return { bus: b, client };
}

describe.skipIf(!haveRedis())("run command bus", () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    for (const c of clients) c.destroy();
    await redis?.close();
  });

  it("brings the owner's result, and the owner's typed error unchanged", async () => {
    const seen: RunCommand[] = [];
    await bus("owner", async (command) => {
      seen.push(command);
      if (command.kind === "cancel") throw new ArgusError("conflict:session", "There is no active run to stop.");
      return { runId: "r1", resumed: true };
    });
    const { bus: asker } = await bus("asker", async () => ({ runId: "never" }));
    expect(await asker.send("owner", { kind: "post", sessionId: SESSION, body: { role: "user", content: "hi" } })).toEqual({ runId: "r1", resumed: true });
    const refused = await asker.send("owner", { kind: "cancel", sessionId: SESSION }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ArgusError);
    expect(refused).toMatchObject({ code: "conflict:session", status: 409, message: "There is no active run to stop." });
    expect(seen.map((c) => c.kind)).toEqual(["post", "cancel"]);
  });

  it("carries a batch's cancel to its owner, and refuses an answer that does not fit the command", async () => {
    const BATCH = "22222222-2222-4222-8222-222222222222";
    const seen: RunCommand[] = [];
    await bus("batch-owner", async (command) => {
      seen.push(command);
      return command.kind === "cancel_batch" ? { batchId: command.batchId } : { batchId: "a run command answered as a batch" };
    });
    const { bus: asker } = await bus("batch-asker", async () => ({ runId: "never" }));
    expect(await asker.send("batch-owner", { kind: "cancel_batch", sessionId: SESSION, batchId: BATCH })).toEqual({ batchId: BATCH });
    expect(seen).toEqual([{ kind: "cancel_batch", sessionId: SESSION, batchId: BATCH }]);
    const mismatched = await asker.send("batch-owner", { kind: "cancel", sessionId: SESSION }).catch((e: unknown) => e);
    expect(mismatched).toMatchObject({ code: "internal:message", status: 500 });
  });

  it("answers 503 at once for an owner nobody listens for (it died before its lease ran out)", async () => {
    const { bus: asker } = await bus("asker-2", async () => ({ runId: "never" }));
    const error = await asker.send("gone", { kind: "cancel", sessionId: SESSION }, 60_000).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unavailable:message", status: 503 });
  });

  it("drops a command that reaches the owner after its asker gave up", async () => {
    const seen: RunCommand[] = [];
    const { client } = await bus("owner-late", async (command) => {
      seen.push(command);
      return { runId: "r" };
    });
    // As if flushed from a queue long after: expired on arrival.
    await client.publish(commandChannel("owner-late"), JSON.stringify({ id: "x", from: "nobody", expiresAt: Date.now() - 1, command: { kind: "cancel", sessionId: SESSION } }));
    // A fresh command sent after it is handled, so the stale one was read (and dropped) first.
    const { bus: asker } = await bus("asker-3", async () => ({ runId: "never" }));
    await asker.send("owner-late", { kind: "post", sessionId: SESSION, body: { role: "user", content: "now" } });
    expect(seen.map((c) => c.kind)).toEqual(["post"]);
    expect(logs.some((l) => l.includes("arrived after its asker gave up"))).toBe(true);
  });

  it("ignores a malformed command instead of failing", async () => {
    const seen: RunCommand[] = [];
    const { client } = await bus("owner-strict", async (command) => {
      seen.push(command);
      return { runId: "r" };
    });
    await client.publish(commandChannel("owner-strict"), "{not json");
    await client.publish(commandChannel("owner-strict"), JSON.stringify({ id: "y", from: "z", expiresAt: Date.now() + 60_000, command: { kind: "delete-everything" } }));
    const { bus: asker } = await bus("asker-4", async () => ({ runId: "never" }));
    await asker.send("owner-strict", { kind: "cancel", sessionId: SESSION });
    expect(seen.map((c) => c.kind)).toEqual(["cancel"]);
    expect(logs.some((l) => l.includes("ignored a malformed run command"))).toBe(true);
  });
});
