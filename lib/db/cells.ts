import type { Execution } from "@/lib/protocol/contexts";
import type { Db } from "./database";

/** Where a large output of the cell was written instead (lib/kernels/cell-outputs.ts). */
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
): number {
  return db.transaction(() => {
    const idx =
      ((db.prepare("SELECT MAX(idx) FROM cells WHERE session_id = ?").pluck().get(sessionId) as number | null) ?? 0) + 1;
    db.prepare(
      `INSERT INTO cells (session_id, idx, kernel_id, code, execution, execution_count, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(sessionId, idx, cell.kernelId, cell.code, JSON.stringify(cell.outputFiles?.length ? { ...cell.execution, outputFiles: cell.outputFiles } : cell.execution), cell.executionCount, new Date().toISOString());
    return idx;
  })();
}

export function cellsOfSession(db: Db, sessionId: string): CellRow[] {
  const rows = db
    .prepare(
      `SELECT idx, kernel_id AS kernelId, code, execution, execution_count AS executionCount, created_at AS createdAt
       FROM cells WHERE session_id = ? ORDER BY idx`,
    )
    .all(sessionId) as (Omit<CellRow, "execution"> & { execution: string })[];
  return rows.map((r) => {
    const { outputFiles, ...execution } = JSON.parse(r.execution) as Execution & { outputFiles?: CellOutputFile[] };
    return { ...r, execution, ...(outputFiles ? { outputFiles } : {}) };
  });
}
