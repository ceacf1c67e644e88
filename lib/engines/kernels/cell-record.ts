import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { appendCell, cellsOfSession, type CellRow } from "@/lib/engines/db/cells";
import type { Db } from "@/lib/engines/db/database";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { joinOutputs, splitLargeOutputs, type OutputFile } from "./cell-outputs";
import { writeInSlices } from "./write-in-slices";

/** Where a session's large cell outputs live (server-written; session ids are server-made uuids). */
export function cellOutputDir(dataDir: string, sessionId: string): string {
  return path.join(dataDir, "cell-outputs", sessionId);
}

/**
 * Records a cell for the notebook export (cell-outputs.ts says why large values go to files).
 * The row is written before this resolves (the caller awaits it, so cells keep the order
 * they ran in); the files follow in the background.
 */
export async function recordCell(
  deps: { db: Db; dataDir: string; log?: (line: string) => void },
  sessionId: string,
  cell: { kernelId: string; code: string; execution: Execution; executionCount: number | null },
): Promise<void> {
  const { stored, files } = splitLargeOutputs(cell.execution, () => `${randomUUID()}.txt`);
  await appendCell(deps.db, sessionId, { ...cell, execution: stored, outputFiles: files.map(({ value: _value, ...f }) => f) });
  if (!files.length) return;
  const dir = cellOutputDir(deps.dataDir, sessionId);
  void (async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const f of files) await writeInSlices(path.join(dir, f.file), f.value);
  })().catch((error: unknown) => deps.log?.(`[kernels] could not keep a cell's output for the notebook: ${String(error)}`));
}

/** The session's recorded cells with their large outputs read back. */
export async function recordedCells(deps: { db: Db; dataDir: string }, sessionId: string): Promise<CellRow[]> {
  const dir = cellOutputDir(deps.dataDir, sessionId);
  return Promise.all(
    (await cellsOfSession(deps.db, sessionId)).map(async (row) => {
      const files: OutputFile[] = row.outputFiles ?? [];
      if (!files.length) return row;
      const values = new Map<string, string | null>();
      for (const f of files) values.set(f.file, await readFile(path.join(dir, path.basename(f.file)), "utf8").catch(() => null));
      return { ...row, execution: joinOutputs(row.execution, files, values) };
    }),
  );
}

export function removeCellOutputs(dataDir: string, sessionId: string): Promise<void> {
  return rm(cellOutputDir(dataDir, sessionId), { recursive: true, force: true });
}
