/**
 * vitest globalSetup: under ARGUS_TEST_DB=postgres, one throwaway Postgres
 * server for the whole run (each test file makes its own databases on it, see
 * test-engines.ts), stopped when the run ends. Without the flag it does nothing.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.ARGUS_TEST_DB !== "postgres") {
    project.provide("argusTestPostgres", null);
    return undefined;
  }
  const server = await startPostgres();
  project.provide("argusTestPostgres", server.url("postgres"));
  return () => server.stop();
}
