import type { Execution, ExecutionResult } from "@/lib/foundation/protocol/contexts";
import { CappedText } from "./capped-text";

/** The parts of a Jupyter iopub message the collector reads. */
export interface IopubMessage {
  header: { msg_type: string };
  content: Record<string, unknown>;
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
export const stripAnsi = (text: string) => text.replace(ANSI, "");

/** Characters a display result holds (its mime bundle's values). */
function sizeOf(result: ExecutionResult): number {
  let chars = 0;
  for (const value of Object.values(result.data)) chars += value.length;
  return chars;
}

/** Mime bundle values arrive as strings, lists of lines, or JSON; keep strings. */
function normaliseBundle(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!data || typeof data !== "object") return out;
  for (const [mime, value] of Object.entries(data as Record<string, unknown>)) {
    if (typeof value === "string") out[mime] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) out[mime] = value.join("");
    else out[mime] = JSON.stringify(value);
  }
  return out;
}

function isViewed(metadata: unknown): boolean {
  const argus = (metadata as { argus?: { view?: unknown } } | undefined)?.argus;
  return argus?.view === true;
}

export interface CollectorLimits {
  /** Characters kept from the start and from the end of each stream. */
  streamHead: number;
  streamTail: number;
  /** At most this many display results are kept (the last ones win). */
  maxResults: number;
  /**
   * Characters of display data kept over all results (the last ones win). Streams are capped in
   * the kernel, but a cell (or a stored function) can `display(..., raw=True)` a bundle of any
   * size, up to the websocket's 100 MiB per message, and 50 of those would be 5 GB in the server.
   */
  maxResultChars: number;
}

export const DEFAULT_COLLECTOR_LIMITS: CollectorLimits = {
  streamHead: 1_000_000,
  streamTail: 1_000_000,
  maxResults: 50,
  // Above the largest legitimate bundle: a function's outcome (10 M result + 1 M output) or a big picture.
  maxResultChars: 64_000_000,
};

/**
 * Turns a cell's iopub traffic into one `Execution`: stdout and stderr
 * (capped), display outputs and the cell's value as mime bundles (images
 * marked when `view_image` asked the planner to look), and the error with its
 * traceback stripped of ANSI colour codes.
 */
export class ExecutionCollector {
  private stdout: CappedText;
  private stderr: CappedText;
  private results: ExecutionResult[] = [];
  private resultChars = 0;
  private droppedResults = 0;
  private error: Execution["error"] = null;
  executionCount: number | null = null;

  constructor(private readonly limits: CollectorLimits = DEFAULT_COLLECTOR_LIMITS) {
    this.stdout = new CappedText(limits.streamHead, limits.streamTail);
    this.stderr = new CappedText(limits.streamHead, limits.streamTail);
  }

  push(msg: IopubMessage): void {
    const c = msg.content;
    switch (msg.header.msg_type) {
      case "stream": {
        const text = typeof c.text === "string" ? c.text : "";
        (c.name === "stderr" ? this.stderr : this.stdout).append(text);
        return;
      }
      case "execute_input":
        if (typeof c.execution_count === "number") this.executionCount = c.execution_count;
        return;
      case "display_data":
      case "execute_result": {
        const result: ExecutionResult = {
          data: normaliseBundle(c.data),
          isMain: msg.header.msg_type === "execute_result",
          viewed: isViewed(c.metadata),
        };
        const chars = sizeOf(result);
        if (chars > this.limits.maxResultChars) {
          this.droppedResults++;
          return;
        }
        this.results.push(result);
        this.resultChars += chars;
        while (this.results.length > this.limits.maxResults || this.resultChars > this.limits.maxResultChars) {
          this.resultChars -= sizeOf(this.results.shift()!);
          this.droppedResults++;
        }
        return;
      }
      case "clear_output":
        this.results = [];
        this.resultChars = 0;
        this.stdout = new CappedText(this.limits.streamHead, this.limits.streamTail);
        return;
      case "error": {
        const tb = Array.isArray(c.traceback) ? (c.traceback as unknown[]).map(String).join("\n") : "";
        this.error = {
          name: String(c.ename ?? "Error"),
          value: String(c.evalue ?? ""),
          traceback: stripAnsi(tb),
        };
        return;
      }
      default:
        return;
    }
  }

  /** Records a failure the kernel itself could not report (timeout, death, cancel). */
  fail(name: string, value: string): void {
    this.error = { name, value, traceback: `${name}: ${value}` };
  }

  get hasError(): boolean {
    return this.error !== null;
  }

  result(): Execution {
    let stderr = this.stderr.toString();
    if (this.droppedResults > 0) {
      stderr += `${stderr && !stderr.endsWith("\n") ? "\n" : ""}[${this.droppedResults} display outputs omitted (a cell keeps its last ${this.limits.maxResults}, and at most ${this.limits.maxResultChars} characters of them)]\n`;
    }
    return { results: [...this.results], stdout: this.stdout.toString(), stderr, error: this.error };
  }
}
