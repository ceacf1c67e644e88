import type { Execution } from "@/lib/foundation/protocol/contexts";
import { helpersCells } from "./notebook-helpers";

/** A recorded cell, in the order it ran. */
export interface NotebookCellInput {
  code: string;
  execution: Execution;
  executionCount: number | null;
  kernelId: string;
}

type Output =
  | { output_type: "stream"; name: "stdout" | "stderr"; text: string }
  | { output_type: "display_data"; data: Record<string, unknown>; metadata: Record<string, unknown> }
  | { output_type: "execute_result"; data: Record<string, unknown>; metadata: Record<string, unknown>; execution_count: number | null }
  | { output_type: "error"; ename: string; evalue: string; traceback: string[] };

/** nbformat keeps JSON outputs as objects; Argus stores every bundle value as a string. */
function bundleForNotebook(data: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [mime, value] of Object.entries(data)) {
    if (mime === "application/json" || mime.endsWith("+json")) {
      try {
        out[mime] = JSON.parse(value);
        continue;
      } catch {
        // not JSON after all: keep it as text under its own mime
      }
    }
    out[mime] = value;
  }
  return out;
}

function outputsOf(e: Execution, executionCount: number | null): Output[] {
  const outputs: Output[] = [];
  if (e.stdout) outputs.push({ output_type: "stream", name: "stdout", text: e.stdout });
  if (e.stderr) outputs.push({ output_type: "stream", name: "stderr", text: e.stderr });
  for (const r of e.results) {
    const data = bundleForNotebook(r.data);
    const metadata = r.viewed ? { argus: { view: true } } : {};
    outputs.push(
      r.isMain
        ? { output_type: "execute_result", data, metadata, execution_count: executionCount }
        : { output_type: "display_data", data, metadata },
    );
  }
  if (e.error) {
    outputs.push({ output_type: "error", ename: e.error.name, evalue: e.error.value, traceback: e.error.traceback.split("\n") });
  }
  return outputs;
}

/**
 * A session's notebook as nbformat 4.5 JSON: one code cell per executed cell,
 * with its outputs. When the kernel was replaced (reset, crash, idle reaping)
 * a markdown cell marks where the earlier state was lost, so the file reads
 * honestly when re-run from the top.
 *
 * With `helpers` (the argus package zipped, and the session it ran in) the notebook starts with the
 * cells that load Argus's helpers (notebook-helpers.ts), and each cell that failed in Argus is
 * tagged `raises-exception`, so `jupyter nbconvert --execute` runs it top to bottom in plain Jupyter.
 */
export function buildNotebook(
  cells: readonly NotebookCellInput[],
  meta: { title: string | null; helpers?: { packageZip: Buffer; sessionId: string } },
): Record<string, unknown> {
  const nbCells: Record<string, unknown>[] = meta.helpers ? helpersCells(meta.helpers.packageZip, meta.helpers.sessionId) : [];
  let kernel: string | null = null;
  cells.forEach((c, i) => {
    if (kernel !== null && c.kernelId !== kernel) {
      nbCells.push({
        cell_type: "markdown",
        id: `reset-${i}`,
        metadata: {},
        source: "*The kernel was restarted here; variables from the cells above were lost.*",
      });
    }
    kernel = c.kernelId;
    nbCells.push({
      cell_type: "code",
      id: `cell-${i + 1}`,
      metadata: meta.helpers && c.execution.error ? { tags: ["raises-exception"] } : {},
      execution_count: c.executionCount,
      source: c.code,
      outputs: outputsOf(c.execution, c.executionCount),
    });
  });
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: "python3", display_name: "Python 3", language: "python" },
      language_info: { name: "python" },
      argus: { title: meta.title },
    },
    cells: nbCells,
  };
}
