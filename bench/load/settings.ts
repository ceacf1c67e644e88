/** The benchmark's sizes and time budget (overridable from the environment), and small shared helpers. */
const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
  return v;
};
export const LOAD_SESSIONS = int("BENCH_LOAD_SESSIONS", 20);
export const SOAK_RUNS = int("BENCH_SOAK_RUNS", 200);
export const SOAK_SESSIONS = int("BENCH_SOAK_SESSIONS", 200);
export const WARMUP = 20;
/** In both soaks every 10th run is a planner run (one cell, plus the coder's isolated kernel). */
export const KERNEL_EVERY = 10;
export const POOL = 4;
/** A soak whose heap after a full GC grows faster than this is flagged. */
export const LEAK_MB_PER_100 = 1;
export const TOTAL_BUDGET_MS = 14 * 60_000;

export const TERMINAL = ["finished", "stopped", "error", "rejected", "interrupted"];
export const startedAt = Date.now();
export const now = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const remaining = () => startedAt + TOTAL_BUDGET_MS - Date.now();
export const mb = (kb: number | null | undefined) => (kb == null ? Number.NaN : kb / 1024);
export const log = (line: string) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${line}`);
