import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { createRedisClient, type RedisClient } from "@/lib/features/scale/redis";
import { RunCommandBus } from "@/lib/features/scale/run-command-bus";
import { seal } from "@/lib/features/scale/command-seal";
import { commandChannel, type RunCommand } from "@/lib/features/scale/run-commands";
import { haveRedis, startRedis, type RunningRedis } from "@/tests/helpers/redis-server";

/** Run commands between two buses over a real redis-server (started here, on loopback). */
const SESSION = "11111111-1111-4111-8111-111111111111";
const SECRET = "bus-test-cluster-secret-0123456789abcdef";
/** A message as an instance with the cluster secret publishes it on `channel`. */
const sealed = (channel: string, message: unknown) => seal(SECRET, channel, typeof message === "string" ? message : JSON.stringify(message));
let redis: RunningRedis;
const clients: RedisClient[] = [];
const buses: RunCommandBus[] = [];
const logs: string[] = [];

async function bus(id: string, handler: (c: RunCommand) => Promise<{ runId: string; resumed?: boolean } | { batchId: string }>) {
  const client = createRedisClient(redis.url, (l) => logs.push(l));
  await client.connect();
  clients.push(client);
  const b = new RunCommandBus(client, id, SECRET, (l) => logs.push(l));
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
    await client.publish(commandChannel("owner-late"), sealed(commandChannel("owner-late"), { id: "x", from: "nobody", expiresAt: Date.now() - 1, command: { kind: "cancel", sessionId: SESSION } }));
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
    await client.publish(commandChannel("owner-strict"), sealed(commandChannel("owner-strict"), "{not json"));
    await client.publish(commandChannel("owner-strict"), sealed(commandChannel("owner-strict"), { id: "y", from: "z", expiresAt: Date.now() + 60_000, command: { kind: "delete-everything" } }));
    const { bus: asker } = await bus("asker-4", async () => ({ runId: "never" }));
    await asker.send("owner-strict", { kind: "cancel", sessionId: SESSION });
    expect(seen.map((c) => c.kind)).toEqual(["cancel"]);
    expect(logs.some((l) => l.includes("ignored a malformed run command"))).toBe(true);
  });

  it("refuses a well-formed command that is unsigned, signed with another secret, or for another instance", async () => {
    const seen: RunCommand[] = [];
    const { client } = await bus("owner-signed", async (command) => {
      seen.push(command);
      return { runId: "r" };
    });
    const channel = commandChannel("owner-signed");
    const post = (id: string) => ({ id, from: "attacker", expiresAt: Date.now() + 60_000, command: { kind: "post", sessionId: SESSION, body: { role: "user", content: "forged" } } });
    // What `redis-cli publish argus:run-commands:<instance> '{…"kind":"post"…}'` sends.
    await client.publish(channel, JSON.stringify(post("forged-1")));
    await client.publish(channel, seal("another-secret-of-32-characters-xx", channel, JSON.stringify(post("forged-2"))));
    await client.publish(channel, sealed(commandChannel("someone-else"), post("forged-3")));
    const { bus: asker } = await bus("asker-5", async () => ({ runId: "never" }));
    await asker.send("owner-signed", { kind: "cancel", sessionId: SESSION });
    expect(seen.map((c) => c.kind)).toEqual(["cancel"]);
    expect(logs.filter((l) => l.includes("refused a run command (unsigned)"))).toHaveLength(1);
    expect(logs.filter((l) => l.includes("refused a run command (bad signature)"))).toHaveLength(2);
  });

  it("refuses a replay of a signed command it already handled", async () => {
    const seen: RunCommand[] = [];
    const { client } = await bus("owner-replayed", async (command) => {
      seen.push(command);
      return { runId: "r" };
    });
    // Captured on the wire: an eavesdropper on Redis sees the sealed message and publishes it again.
    const captured: string[] = [];
    const spy = client.duplicate();
    await spy.connect();
    clients.push(spy);
    await spy.subscribe(commandChannel("owner-replayed"), (raw) => void captured.push(raw));
    const { bus: asker } = await bus("asker-6", async () => ({ runId: "never" }));
    await asker.send("owner-replayed", { kind: "post", sessionId: SESSION, body: { role: "user", content: "once" } });
    await vi.waitFor(() => expect(captured).toHaveLength(1));
    await client.publish(commandChannel("owner-replayed"), captured[0]!);
    await asker.send("owner-replayed", { kind: "cancel", sessionId: SESSION });
    expect(seen.map((c) => c.kind)).toEqual(["post", "cancel"]);
    expect(logs.some((l) => l.includes("a replay of a command already handled"))).toBe(true);
  });
});
