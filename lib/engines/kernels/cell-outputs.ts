import type { Execution } from "@/lib/foundation/protocol/contexts";

/**
 * Large display outputs of a recorded cell (a 5 MP picture is 20 MB of base64) are kept in
 * files beside the database instead of inside the cells table: stringifying and writing 20 MB
 * into SQLite is synchronous and held the server's event loop for ~0.4 s, stalling every other
 * session. The row keeps the cell with those values emptied and a list saying where they went;
 * the list lives outside the kernel's data, so nothing a kernel prints can name a file.
 */
export interface OutputFile {
  /** Index into `execution.results`, or STREAM_RESULT for a stream (its name is then in `mime`). */
  result: number;
  /** The bundle's mimetype, or "stdout" / "stderr" for a stream. */
  mime: string;
  /** File name in the session's cell-output directory (server-chosen). */
  file: string;
}

/** Bundle values longer than this (characters) go to a file. */
export const LARGE_OUTPUT_CHARS = 512 * 1024;

/**
 * `result` of a stream kept in a file. A cell's stdout can hold 2 MB (head and tail), and
 * writing it into the row cost the event loop 24–71 ms per such cell on a busy machine.
 */
export const STREAM_RESULT = -1;
const STREAMS = ["stdout", "stderr"] as const;

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
  const streams: Partial<Record<(typeof STREAMS)[number], string>> = {};
  for (const name of STREAMS) {
    if (execution[name].length > maxChars) {
      files.push({ result: STREAM_RESULT, mime: name, file: newName(), value: execution[name] });
      streams[name] = "";
    }
  }
  return { stored: files.length ? { ...execution, ...streams, results } : execution, files };
}

/** Pure: the execution with each file's value put back (`read` gives null for a file not there). */
export function joinOutputs(stored: Execution, files: readonly OutputFile[], values: ReadonlyMap<string, string | null>): Execution {
  if (!files.length) return stored;
  const results = stored.results.map((r) => ({ ...r, data: { ...r.data } }));
  const streams: Partial<Record<(typeof STREAMS)[number], string>> = {};
  for (const f of files) {
    if (f.result === STREAM_RESULT) {
      const name = STREAMS.find((s) => s === f.mime);
      if (name) streams[name] = values.get(f.file) ?? `[Argus: this cell's ${name} is not available]\n`;
      continue;
    }
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
  return { ...stored, ...streams, results };
}
