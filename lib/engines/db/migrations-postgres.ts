import type { Migration } from "./migrations";

/**
 * The Postgres schema, version for version the same tables as migrations.ts
 * (SQLite). Differences, and why: BIGINT for sizes; DOUBLE PRECISION for REAL;
 * runs get an `ord` column because Postgres has no rowid to break ties between
 * runs started in the same millisecond. Times and JSON stay TEXT, as in SQLite,
 * so both engines hand back the same strings.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions, events, runs, files",
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        browser_hash TEXT,
        title TEXT,
        settings TEXT NOT NULL DEFAULT '{}',
        last_seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX sessions_by_browser ON sessions(browser_hash, updated_at);

      CREATE TABLE events (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        run_id TEXT,
        ts TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        agent_state TEXT NOT NULL,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        ord BIGSERIAL NOT NULL
      );
      CREATE INDEX runs_by_session ON runs(session_id, started_at);

      CREATE TABLE files (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        origin TEXT NOT NULL CHECK (origin IN ('upload', 'generated')),
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('image', 'video', 'other')),
        mime TEXT NOT NULL,
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        width INTEGER,
        height INTEGER,
        duration_sec DOUBLE PRECISION,
        thumb_sha256 TEXT,
        thumb_mime TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX files_by_session ON files(session_id, created_at);
      CREATE INDEX files_by_sha ON files(sha256);
      CREATE INDEX files_by_thumb ON files(thumb_sha256);
    `,
  },
  {
    version: 2,
    name: "notebook cells",
    sql: `
      CREATE TABLE cells (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        kernel_id TEXT NOT NULL,
        code TEXT NOT NULL,
        execution TEXT NOT NULL,
        execution_count INTEGER,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, idx)
      );
    `,
  },
  {
    version: 3,
    name: "run leases",
    sql: `
      -- See migrations.ts: one row per session, the lock and lease of its active run.
      CREATE TABLE run_leases (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX run_leases_by_owner ON run_leases(owner);
      CREATE INDEX run_leases_by_expiry ON run_leases(expires_at);
    `,
  },
  {
    version: 4,
    name: "session kernels",
    sql: `
      -- See migrations.ts: the Jupyter kernel that holds a session's notebook.
      CREATE TABLE session_kernels (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        kernel_id TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: "session functions",
    sql: `
      -- Each coder result, kept as a version of a named session function (issue #15).
      CREATE TABLE session_functions (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        code TEXT NOT NULL,
        test TEXT NOT NULL,
        run_id TEXT,
        test_output TEXT NOT NULL,
        success INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, name, version)
      );
    `,
  },
  {
    version: 6,
    name: "batch runs",
    sql: `
      -- Batch runs (issue #15): one stored function version over many files. The
      -- code is copied in so a batch resumed after a restart runs what it started with.
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        function_name TEXT NOT NULL,
        function_version INTEGER NOT NULL,
        code TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'failed')),
        total INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT
      );
      CREATE INDEX batches_by_session ON batches(session_id, created_at);

      -- One row per file; idx is the order items are run in (resume starts at the first unfinished).
      CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        file_name TEXT NOT NULL,
        upload_id TEXT,
        blob_sha256 TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
        result TEXT,
        stdout TEXT,
        seconds DOUBLE PRECISION,
        error TEXT,
        overlay_file_id TEXT,
        finished_at TEXT,
        PRIMARY KEY (batch_id, idx)
      );
      CREATE INDEX batch_items_by_status ON batch_items(batch_id, status, idx);
    `,
  },
  {
    version: 7,
    name: "function tokens",
    sql: `
      -- See migrations.ts: tokens that only run the session's functions over HTTP, stored hashed.
      CREATE TABLE function_tokens (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE INDEX function_tokens_by_session ON function_tokens(session_id, created_at);
    `,
  },
  {
    version: 8,
    name: "batch owners",
    sql: `
      -- The Argus instance that started a batch. With several instances (REDIS_URL) each resumes
      -- only its own batches when it restarts, so a starting instance never re-runs items another
      -- live instance is running. NULL for batches made before this column.
      ALTER TABLE batches ADD COLUMN owner TEXT;
    `,
  },
  {
    version: 9,
    name: "batch leases",
    sql: `
      -- Until when the owner of a running batch is known to be alive (milliseconds since the epoch,
      -- renewed by the owner). With several instances, another one takes over a batch whose lease
      -- ran out and resumes it from its first unfinished item. NULL on a lone instance.
      ALTER TABLE batches ADD COLUMN lease_expires_at BIGINT;
    `,
  },
  {
    version: 10,
    name: "lease epochs",
    sql: `
      -- A run lease's fencing token: every write made for a run (its events, its state) names the
      -- lease it holds, and the database refuses it unless that very lease (same run, owner and
      -- epoch) is still there, so an owner that stalled past its lease cannot write after the
      -- instance that took the run over. Raised each time an instance takes the row again.
      ALTER TABLE run_leases ADD COLUMN epoch BIGINT NOT NULL DEFAULT 1;
    `,
  },
];
