import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { SqlEngine, SqlParam } from "./engine";

/**
 * better-sqlite3 behind the async seam. Statements run synchronously (they are
 * fast and local); only a transaction can span awaits, so while one is open
 * every other statement on this connection waits for it, otherwise it would
 * silently join (and share the fate of) someone else's transaction.
 */
export class SqliteEngine implements SqlEngine {
  readonly kind = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** Resolves when the open transaction ends; null when none is open. */
  private open: Promise<void> | null = null;

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    // WAL keeps readers from blocking the single writer; synchronous=NORMAL is
    // safe with WAL (a power cut can lose the last commits, never corrupt the file).
    // busy_timeout first, so switching to WAL waits for another process's lock instead of failing.
    this.db.pragma("busy_timeout = 5000");
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    while (this.open) await this.open;
    return this.prepare(sql).all(...params) as T[];
  }

  async one<T>(sql: string, params: readonly SqlParam[] = []): Promise<T | undefined> {
    while (this.open) await this.open;
    return this.prepare(sql).get(...params) as T | undefined;
  }

  async run(sql: string, params: readonly SqlParam[] = []): Promise<{ changes: number }> {
    while (this.open) await this.open;
    return { changes: this.prepare(sql).run(...params).changes };
  }

  async exec(sql: string): Promise<void> {
    while (this.open) await this.open;
    this.db.exec(sql);
  }

  async transaction<T>(fn: (tx: SqlEngine) => Promise<T>): Promise<T> {
    // Checked and taken with no await in between, so two cannot both begin.
    while (this.open) await this.open;
    let end!: () => void;
    this.open = new Promise<void>((resolve) => (end = resolve));
    const tx = new SqliteTransaction(this.db, (sql) => this.prepare(sql));
    try {
      // IMMEDIATE takes the write lock now, so a second process cannot make
      // this transaction fail half-way with SQLITE_BUSY on its first write.
      this.db.exec("BEGIN IMMEDIATE");
      try {
        const result = await fn(tx);
        this.db.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw error;
      }
    } finally {
      tx.done = true;
      this.open = null;
      end();
    }
  }

  async ping(): Promise<boolean> {
    try {
      return (this.db.prepare("SELECT 1 AS one").get() as { one: number }).one === 1;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    while (this.open) await this.open;
    this.db.close();
  }
}

/** The statements of one open transaction: they run at once, never waiting for it. */
class SqliteTransaction implements SqlEngine {
  readonly kind = "sqlite" as const;
  done = false;

  constructor(
    private readonly db: Database.Database,
    private readonly prepare: (sql: string) => Database.Statement,
  ) {}

  private live(): void {
    if (this.done) throw new Error("a statement ran on a transaction that has already ended");
  }

  async all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    this.live();
    return this.prepare(sql).all(...params) as T[];
  }

  async one<T>(sql: string, params: readonly SqlParam[] = []): Promise<T | undefined> {
    this.live();
    return this.prepare(sql).get(...params) as T | undefined;
  }

  async run(sql: string, params: readonly SqlParam[] = []): Promise<{ changes: number }> {
    this.live();
    return { changes: this.prepare(sql).run(...params).changes };
  }

  async exec(sql: string): Promise<void> {
    this.live();
    this.db.exec(sql);
  }

  transaction<T>(fn: (tx: SqlEngine) => Promise<T>): Promise<T> {
    // Already inside one: the work joins it.
    return fn(this);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    throw new Error("close the engine, not a transaction");
  }
}
