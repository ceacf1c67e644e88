import type { Db } from "./database";

/** One kept version of a session function (a coder result). */
export interface FunctionVersionRow {
  sessionId: string;
  name: string;
  version: number;
  code: string;
  test: string;
  /** The run that produced it (null when it was added outside a run). */
  runId: string | null;
  testOutput: string;
  /** The test ran without an exception. */
  success: boolean;
  createdAt: string;
}

/** A session function by name, with its newest version. */
export interface FunctionSummaryRow {
  name: string;
  latestVersion: number;
  versions: number;
  updatedAt: string;
  success: boolean;
}

interface RawVersion {
  session_id: string;
  name: string;
  version: number;
  code: string;
  test: string;
  run_id: string | null;
  test_output: string;
  success: number;
  created_at: string;
}

const fromRaw = (r: RawVersion): FunctionVersionRow => ({
  sessionId: r.session_id,
  name: r.name,
  version: Number(r.version),
  code: r.code,
  test: r.test,
  runId: r.run_id,
  testOutput: r.test_output,
  success: Number(r.success) === 1,
  createdAt: r.created_at,
});

/**
 * Keeps a new version of (session, name): one more than its newest, 1 for a
 * new name. The number is computed and inserted in one statement, and a
 * session's runs are serialised, so versions have no gaps; the primary key
 * refuses a duplicate should two writers ever race.
 */
export async function addFunctionVersion(
  db: Db,
  f: { sessionId: string; name: string; code: string; test: string; runId: string | null; testOutput: string; success: boolean; now: string },
): Promise<FunctionVersionRow> {
  return db.transaction(async (tx) => {
    const top = await tx.one<{ v: number | null }>("SELECT MAX(version) AS v FROM session_functions WHERE session_id = ? AND name = ?", [f.sessionId, f.name]);
    const version = Number(top?.v ?? 0) + 1;
    await tx.run(
      `INSERT INTO session_functions (session_id, name, version, code, test, run_id, test_output, success, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [f.sessionId, f.name, version, f.code, f.test, f.runId, f.testOutput, f.success ? 1 : 0, f.now],
    );
    return { sessionId: f.sessionId, name: f.name, version, code: f.code, test: f.test, runId: f.runId, testOutput: f.testOutput, success: f.success, createdAt: f.now };
  });
}

/** The session's functions, newest first, each with its latest version. */
export async function functionsOfSession(db: Db, sessionId: string): Promise<FunctionSummaryRow[]> {
  const rows = await db.all<{ name: string; latest: number; versions: number; updated_at: string; success: number }>(
    `SELECT f.name AS name, f.version AS latest, c.n AS versions, f.created_at AS updated_at, f.success AS success
     FROM session_functions f
     JOIN (SELECT name, MAX(version) AS top, COUNT(*) AS n FROM session_functions WHERE session_id = ? GROUP BY name) c
       ON c.name = f.name AND c.top = f.version
     WHERE f.session_id = ?
     ORDER BY f.created_at DESC, f.name`,
    [sessionId, sessionId],
  );
  return rows.map((r) => ({ name: r.name, latestVersion: Number(r.latest), versions: Number(r.versions), updatedAt: r.updated_at, success: Number(r.success) === 1 }));
}

/** Every version of one function, oldest first. */
export async function functionVersions(db: Db, sessionId: string, name: string): Promise<FunctionVersionRow[]> {
  const rows = await db.all<RawVersion>("SELECT * FROM session_functions WHERE session_id = ? AND name = ? ORDER BY version", [sessionId, name]);
  return rows.map(fromRaw);
}

/** One version, or the latest when `version` is null; null when there is none. */
export async function functionVersion(db: Db, sessionId: string, name: string, version: number | null): Promise<FunctionVersionRow | null> {
  const row =
    version === null
      ? await db.one<RawVersion>("SELECT * FROM session_functions WHERE session_id = ? AND name = ? ORDER BY version DESC LIMIT 1", [sessionId, name])
      : await db.one<RawVersion>("SELECT * FROM session_functions WHERE session_id = ? AND name = ? AND version = ?", [sessionId, name, version]);
  return row ? fromRaw(row) : null;
}
