/**
 * vitest globalSetup: under ARGUS_TEST_DB=postgres, one throwaway Postgres
 * server for the whole run (each test file makes its own databases on it, see
 * test-engines.ts); under ARGUS_TEST_REDIS=1, one throwaway Redis that every
 * Argus of the run shares (Socket.io's stream and command channels are keyed
 * by session and instance, so files do not see each other's events). Both are
 * stopped when the run ends. Without the flags it does nothing.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres";
import { startRedis } from "./redis-server";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  if (process.env.ARGUS_TEST_DB === "postgres") {
    const server = await startPostgres();
    stops.push(() => server.stop());
    project.provide("argusTestPostgres", server.url("postgres"));
  } else {
    project.provide("argusTestPostgres", null);
  }
  if (process.env.ARGUS_TEST_REDIS === "1") {
    const redis = await startRedis();
    stops.push(() => redis.close());
    project.provide("argusTestRedis", redis.url);
  } else {
    project.provide("argusTestRedis", null);
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
