/**
 * The seam between the repository functions (sessions.ts, events.ts, …) and a
 * database. Repository SQL is written once, with `?` placeholders and the SQL
 * both engines share (RETURNING, ON CONFLICT … DO UPDATE); an engine translates
 * placeholders and turns its driver's rows into plain objects. Where the two
 * dialects really differ, a repository asks `kind` (rare, and said why there).
 */
export type EngineKind = "sqlite" | "postgres";

export type SqlParam = string | number | null;

export interface SqlEngine {
  readonly kind: EngineKind;
  /** Every row the statement returns. */
  all<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** The first row, or undefined. */
  one<T>(sql: string, params?: readonly SqlParam[]): Promise<T | undefined>;
  /** Runs a statement; `changes` is the number of rows it touched. */
  run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }>;
  /** Runs a script of statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when
   * it throws. Use only `tx` inside, never the outer engine.
   */
  transaction<T>(fn: (tx: SqlEngine) => Promise<T>): Promise<T>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** `?` → `$1, $2, …` for Postgres. Repository SQL never has `?` inside a string literal. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The first column of a row (COUNT(*), MAX(x), a single id). */
export function firstColumn<T>(row: Record<string, unknown> | undefined): T | undefined {
  if (row === undefined) return undefined;
  const key = Object.keys(row)[0];
  return key === undefined ? undefined : (row[key] as T);
}
