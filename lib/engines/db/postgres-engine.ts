import pg from "pg";
import { firstColumn, numberedPlaceholders, type SqlEngine, type SqlParam } from "./engine";
import { asDatabaseError } from "./unavailable";

/** BIGINT (COUNT(*), sizes) as a JS number: Argus's counts and byte sizes stay far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

async function query<T>(on: Queryable, sql: string, params: readonly SqlParam[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  try {
    return await on.query<T & pg.QueryResultRow>(numberedPlaceholders(sql), params as SqlParam[]);
  } catch (error) {
    throw asDatabaseError(error);
  }
}

/** Statements on a pool (each may take any connection) or on one client (a transaction). */
class PostgresStatements {
  readonly kind = "postgres" as const;
  constructor(protected readonly on: Queryable) {}

  async all<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return (await query<T>(this.on, sql, params)).rows;
  }

  async one<T>(sql: string, params: readonly SqlParam[] = []): Promise<T | undefined> {
    return (await query<T>(this.on, sql, params)).rows[0];
  }

  async run(sql: string, params: readonly SqlParam[] = []): Promise<{ changes: number }> {
    return { changes: (await query(this.on, sql, params)).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    // A parameterless query may hold several statements (the simple protocol).
    try {
      await this.on.query(sql);
    } catch (error) {
      throw asDatabaseError(error);
    }
  }

  async ping(): Promise<boolean> {
    try {
      return firstColumn<number>(await this.one<Record<string, unknown>>("SELECT 1 AS one")) === 1;
    } catch {
      return false;
    }
  }
}

class PostgresTransaction extends PostgresStatements implements SqlEngine {
  transaction<T>(fn: (tx: SqlEngine) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async close(): Promise<void> {
    throw new Error("close the engine, not a transaction");
  }
}

/**
 * node-postgres behind the seam: a pool for single statements, one checked-out
 * client per transaction. Every error that means "the server is not there"
 * becomes the typed 503 (unavailable.ts), so callers never see driver codes.
 */
export class PostgresEngine extends PostgresStatements implements SqlEngine {
  private readonly pool: pg.Pool;

  constructor(url: string, options: { max?: number } = {}) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 10,
      // Fail a request readably instead of hanging while the server is down.
      connectionTimeoutMillis: 5_000,
      types,
    });
    super(pool);
    this.pool = pool;
    // An idle connection dropped by the server (a restart) must not crash the
    // process; the pool discards it and the next query opens a fresh one.
    pool.on("error", (error) => console.error(`[argus] database connection lost: ${error.message}`));
  }

  async transaction<T>(fn: (tx: SqlEngine) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw asDatabaseError(error);
    }
    let broken: unknown = null;
    // A connection cut between two statements of the transaction is emitted as
    // an 'error' event on the checked-out client; unheard, it would crash the
    // process. The next statement then fails and the transaction rolls back.
    const onError = (error: Error) => (broken = error);
    client.on("error", onError);
    try {
      await query(client, "BEGIN", []);
      const result = await fn(new PostgresTransaction(client));
      await query(client, "COMMIT", []);
      return result;
    } catch (error) {
      // The server rolls back an unfinished transaction when its connection
      // dies, so nothing half-written survives either way.
      await client.query("ROLLBACK").catch((rollbackError: unknown) => (broken = rollbackError));
      throw error;
    } finally {
      client.off("error", onError);
      // A client whose connection failed must not go back into the pool.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
