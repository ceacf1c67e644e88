import { createRequire } from "node:module";
import type { createClient as CreateClient } from "redis";

/**
 * The redis package, loaded when the first client is made: only an instance with REDIS_URL uses it,
 * and importing it costs about 0.3 CPU-seconds at every start of every other one (each test server's too).
 */
const loadRedis = (): { createClient: typeof CreateClient } => createRequire(import.meta.url)("redis") as { createClient: typeof CreateClient };

function makeClient(url: string) {
  return loadRedis().createClient({
    url,
    socket: {
      // 50 ms, 100 ms, … capped at 2 s: back within 2 s of Redis returning.
      reconnectStrategy: (retries) => Math.min(50 * 2 ** Math.min(retries, 6), 2000),
      connectTimeout: 5000,
    },
  });
}

export type RedisClient = ReturnType<typeof makeClient>;

/**
 * A Redis client that rides out Redis going away: it reconnects forever with a
 * capped backoff, queues commands meanwhile (so nothing that needs Redis
 * throws while it is down; a caller that must not wait sets its own
 * deadline), and logs one line when Redis goes and one when it is back,
 * instead of one per failed attempt. Nothing in Argus needs Redis to be up to
 * keep serving: the database holds the truth, Redis only carries it between
 * instances.
 */
export function createRedisClient(url: string, log: (line: string) => void, name = "redis"): RedisClient {
  const client = makeClient(url);
  let down = false;
  client.on("error", (error: unknown) => {
    if (down) return;
    down = true;
    log(`[${name}] Redis at ${redact(url)} is unreachable (${error instanceof Error ? error.message : String(error)}); reconnecting, the database keeps serving`);
  });
  client.on("ready", () => {
    if (down) log(`[${name}] Redis is back`);
    down = false;
  });
  return client;
}

/** Starts connecting without waiting for Redis (it may come up after Argus). */
export function connectInBackground(client: RedisClient, log: (line: string) => void): void {
  client.connect().catch((error: unknown) => log(`[redis] could not connect: ${String(error)}`));
}

/** Closes the client without waiting on a Redis that may be gone. */
export async function closeRedis(client: RedisClient): Promise<void> {
  try {
    if (client.isOpen) client.destroy();
  } catch {
    // already closed
  }
}

/** The URL without its password, for logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}
