import type { Execution } from "@/lib/protocol/contexts";

/**
 * Large display outputs of a recorded cell (a 5 MP picture is 20 MB of base64) are kept in
 * files beside the database instead of inside the cells table: stringifying and writing 20 MB
 * into SQLite is synchronous and held the server's event loop for ~0.4 s, stalling every other
 * session. The row keeps the cell with those values emptied and a list saying where they went;
 * the list lives outside the kernel's data, so nothing a kernel prints can name a file.
 */
export interface OutputFile {
  /** Index into `execution.results`. */
  result: number;
  mime: string;
  /** File name in the session's cell-output directory (server-chosen). */
  file: string;
}

/** Bundle values longer than this (characters) go to a file. */
export const LARGE_OUTPUT_CHARS = 512 * 1024;

/** Pure: the execution to store in the row, and the values to write to files. */
export function splitLargeOutputs(
  execution: Execution,
  newName: () => string,
  maxChars = LARGE_OUTPUT_CHARS,
): { stored: Execution; files: (OutputFile & { value: string })[] } {
  const files: (OutputFile & { value: string })[] = [];
  const results = execution.results.map((r, result) => {
    const data: Record<string, string> = {};
    for (const [mime, value] of Object.entries(r.data)) {
      if (value.length > maxChars) {
        files.push({ result, mime, file: newName(), value });
        data[mime] = "";
      } else data[mime] = value;
    }
    return { ...r, data };
  });
  return { stored: files.length ? { ...execution, results } : execution, files };
}

/** Pure: the execution with each file's value put back (`read` gives null for a file not there). */
export function joinOutputs(stored: Execution, files: readonly OutputFile[], values: ReadonlyMap<string, string | null>): Execution {
  if (!files.length) return stored;
  const results = stored.results.map((r) => ({ ...r, data: { ...r.data } }));
  for (const f of files) {
    const target = results[f.result];
    if (!target) continue;
    const value = values.get(f.file);
    if (value != null) target.data[f.mime] = value;
    else {
      // Missing (still being written, or lost): say so rather than export an empty picture.
      delete target.data[f.mime];
      target.data["text/plain"] = `${target.data["text/plain"] ?? ""}\n[Argus: this output (${f.mime}) is not available]`.trim();
    }
  }
  return { ...stored, results };
}
