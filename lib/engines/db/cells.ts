import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { Db } from "./database";

/** Where a large output of the cell was written instead (lib/engines/kernels/cell-outputs.ts). */
export interface CellOutputFile {
  result: number;
  mime: string;
  file: string;
}

export interface CellRow {
  idx: number;
  kernelId: string;
  code: string;
  execution: Execution;
  executionCount: number | null;
  createdAt: string;
  outputFiles?: CellOutputFile[];
}

export function appendCell(
  db: Db,
  sessionId: string,
  cell: { kernelId: string; code: string; execution: Execution; executionCount: number | null; outputFiles?: CellOutputFile[] },
): Promise<number> {
  return db.transaction(async (tx) => {
    // Postgres: lock the session row so two instances recording a cell at once
    // take turns instead of both choosing the same idx (SQLite's write lock does this).
    if (tx.kind === "postgres") await tx.one("SELECT 1 AS one FROM sessions WHERE id = ? FOR UPDATE", [sessionId]);
    const max = await tx.one<{ idx: number | null }>("SELECT MAX(idx) AS idx FROM cells WHERE session_id = ?", [sessionId]);
    const idx = (max?.idx ?? 0) + 1;
    const execution = cell.outputFiles?.length ? { ...cell.execution, outputFiles: cell.outputFiles } : cell.execution;
    await tx.run(
      `INSERT INTO cells (session_id, idx, kernel_id, code, execution, execution_count, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [sessionId, idx, cell.kernelId, cell.code, JSON.stringify(execution), cell.executionCount, new Date().toISOString()],
    );
    return idx;
  });
}

export async function cellsOfSession(db: Db, sessionId: string): Promise<CellRow[]> {
  const rows = await db.all<Omit<CellRow, "execution"> & { execution: string }>(
    `SELECT idx, kernel_id AS "kernelId", code, execution, execution_count AS "executionCount", created_at AS "createdAt"
     FROM cells WHERE session_id = ? ORDER BY idx`,
    [sessionId],
  );
  return rows.map((r) => {
    const { outputFiles, ...execution } = JSON.parse(r.execution) as Execution & { outputFiles?: CellOutputFile[] };
    return { ...r, execution, ...(outputFiles ? { outputFiles } : {}) };
  });
}
