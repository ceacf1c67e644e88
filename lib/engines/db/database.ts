import { ArgusError, isArgusError } from "@/lib/foundation/errors";
import type { SqlEngine } from "./engine";
import { MIGRATIONS, type Migration } from "./migrations";
import { POSTGRES_MIGRATIONS } from "./migrations-postgres";
import { PostgresEngine } from "./postgres-engine";
import { SqliteEngine } from "./sqlite-engine";

export type Db = SqlEngine;

/** True for a `postgres://` or `postgresql://` URL (DATABASE_URL); anything else is a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/**
 * Opens the database and brings its schema up to date: Postgres for a
 * `postgres://` URL, otherwise the SQLite file at that path (created if needed).
 */
export async function openDatabase(target: string): Promise<Db> {
  const db: Db = isPostgresUrl(target) ? new PostgresEngine(target) : new SqliteEngine(target);
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    if (db.kind === "postgres" && isArgusError(error) && error.code === "unavailable:db") {
      // At start nothing was being saved: say which database could not be reached.
      throw new ArgusError("unavailable:db", `Cannot reach the Postgres database at ${withoutPassword(target)} (DATABASE_URL). Is it running, and does it accept connections from here?`, { cause: error });
    }
    throw error;
  }
  return db;
}

/** The URL as it can be shown in a log: the password replaced by ***. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

export function migrationsFor(db: Db): readonly Migration[] {
  return db.kind === "postgres" ? POSTGRES_MIGRATIONS : MIGRATIONS;
}

/** Applies the engine's migrations not yet recorded in schema_migrations; returns the versions it ran. */
export async function migrate(db: Db): Promise<number[]> {
  await db.transaction(async (tx) => {
    // Under the same lock as the migrations: two instances starting together
    // against an empty Postgres would otherwise race to create this table.
    if (tx.kind === "postgres") await tx.one("SELECT pg_advisory_xact_lock(7248011)");
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  });
  const ran: number[] = [];
  for (const m of migrationsFor(db)) {
    const applied = await db.transaction(async (tx) => {
      // Two instances starting together against one Postgres: the second waits
      // here for the first, then finds the migration recorded and skips it.
      if (tx.kind === "postgres") await tx.one("SELECT pg_advisory_xact_lock(7248011)");
      if (await tx.one("SELECT 1 AS one FROM schema_migrations WHERE version = ?", [m.version])) return false;
      await tx.exec(m.sql);
      await tx.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
      return true;
    });
    if (applied) ran.push(m.version);
  }
  return ran;
}

export function pingDatabase(db: Db): Promise<boolean> {
  return db.ping();
}
