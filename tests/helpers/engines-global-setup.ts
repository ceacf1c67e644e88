/**
 * vitest globalSetup: under ARGUS_TEST_DB=postgres, one throwaway Postgres
 * server for the whole run (each test file makes its own databases on it, see
 * test-engines.ts); under ARGUS_TEST_REDIS=1, one throwaway Redis that every
 * Argus of the run shares (Socket.io's stream and command channels are keyed
 * by session and instance, so files do not see each other's events). Both are
 * stopped when the run ends. Without the flags it does nothing.
 *
 * vitest calls this once per project (unit and integration, vitest.config.ts): both get the same
 * engines, started by the first call and stopped after the last project's teardown.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres";
import { startRedis } from "./redis-server";

type Engines = { postgres: string | null; redis: string | null; stop: () => Promise<void> };
type Shared = { engines?: Promise<Engines>; users: number };
const shared: Shared = ((globalThis as { __argusTestEngines?: Shared }).__argusTestEngines ??= { users: 0 });

async function startEngines(): Promise<Engines> {
  const stops: (() => Promise<void>)[] = [];
  let postgres: string | null = null;
  let redis: string | null = null;
  if (process.env.ARGUS_TEST_DB === "postgres") {
    const server = await startPostgres();
    stops.push(() => server.stop());
    postgres = server.url("postgres");
  }
  if (process.env.ARGUS_TEST_REDIS === "1") {
    const started = await startRedis();
    stops.push(() => started.close());
    redis = started.url;
  }
  return {
    postgres,
    redis,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.users += 1;
  const engines = await (shared.engines ??= startEngines());
  project.provide("argusTestPostgres", engines.postgres);
  project.provide("argusTestRedis", engines.redis);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    shared.engines = undefined;
    await engines.stop();
  };
}
