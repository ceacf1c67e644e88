/**
 * The one place the test suite's engine flag is read. `ARGUS_TEST_DB=postgres`
 * runs every suite that starts Argus (startArgus, startKernelCore, the spine
 * server) or opens its database directly against Postgres instead of SQLite,
 * so no test is written twice. The server itself is started once per vitest
 * run by tests/helpers/engines-global-setup.ts; each Argus data directory gets
 * its own fresh database on it. `ARGUS_TEST_REDIS=1` adds one throwaway Redis
 * for the run and gives every Argus `REDIS_URL`, so Socket.io goes through the
 * Redis streams adapter and runs through leases and the command bus
 * (scripts/test.sh sets both for its second pass).
 */
import { createHash } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";

export type TestDbEngine = "sqlite" | "postgres";

export const TEST_DB: TestDbEngine = process.env.ARGUS_TEST_DB === "postgres" ? "postgres" : "sqlite";
export const TEST_REDIS = process.env.ARGUS_TEST_REDIS === "1";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared test Postgres's maintenance URL (…/postgres), when ARGUS_TEST_DB=postgres. */
    argusTestPostgres: string | null;
    /** The shared test Redis's URL, when ARGUS_TEST_REDIS=1. */
    argusTestRedis: string | null;
  }
}

const created = new Map<string, Promise<string>>();

function serverUrl(): string {
  const url = inject("argusTestPostgres");
  if (!url) throw new Error("ARGUS_TEST_DB=postgres, but no test Postgres was started (tests/helpers/engines-global-setup.ts).");
  return url;
}

/** A fresh Postgres database for `key` (the same key → the same database, so a restarted Argus finds its data). */
export function postgresDatabaseFor(key: string): Promise<string> {
  let url = created.get(key);
  if (!url) {
    const name = `argus_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;
    url = (async () => {
      const admin = new pg.Client({ connectionString: serverUrl() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } catch (error) {
        // 42P04: it exists already (another file's process made it for the same key).
        if ((error as { code?: string }).code !== "42P04") throw error;
      } finally {
        await admin.end();
      }
      return serverUrl().replace(/\/postgres$/, `/${name}`);
    })();
    created.set(key, url);
  }
  return url;
}

/** The run-command signing key every test instance on a shared Redis uses (REDIS_URL requires one). */
export const TEST_CLUSTER_SECRET = "argus-test-cluster-secret-0123456789abcdef";

/** Settings that point an Argus with this data directory at the engines under test (empty for the embedded defaults). */
export async function engineEnv(dataDir: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  if (TEST_DB === "postgres") env.DATABASE_URL = await postgresDatabaseFor(dataDir);
  if (TEST_REDIS) {
    const url = inject("argusTestRedis");
    if (!url) throw new Error("ARGUS_TEST_REDIS=1, but no test Redis was started (tests/helpers/engines-global-setup.ts).");
    env.REDIS_URL = url;
    env.ARGUS_CLUSTER_SECRET = TEST_CLUSTER_SECRET;
  }
  return env;
}

/** What a test opens to read an Argus's database directly: its SQLite file, or its Postgres database. */
export async function databaseTarget(dataDir: string): Promise<string> {
  if (TEST_DB === "postgres") return postgresDatabaseFor(dataDir);
  return path.join(dataDir, "argus.db");
}
