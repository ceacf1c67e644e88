/**
 * What a run is waiting for, while it waits (issue #29: "every wait over ~2 s says what it waits
 * for"). The ephemeral `wait` socket event: sent when a wait begins and when it ends, never
 * persisted nor replayed by `sync`. The page counts the seconds itself from `waitedMs`, so
 * nothing is sent while the wait goes on, and the two clocks need not agree.
 */
import { z } from "zod";

export const WaitWhatSchema = z.enum([
  /** No started kernel was ready: one is being started for this session (a cold start). */
  "notebook_start",
  /** Every kernel Argus may run is taken: this session waits for one to come free. */
  "free_kernel",
]);
export type WaitWhat = z.infer<typeof WaitWhatSchema>;

/** What the kernel pool tells its caller when a request for a kernel has to wait. */
export interface KernelWait {
  what: WaitWhat;
  /** Requests for a kernel queued before this one (free_kernel); null when there is no queue. */
  ahead: number | null;
}

export const WaitWireSchema = z.strictObject({
  /** One wait: its beginning and its end carry the same id. */
  id: z.string().min(1).max(100),
  what: WaitWhatSchema,
  ahead: z.number().int().min(0).nullable(),
  /** How long it had waited when this was sent (0 at the beginning). */
  waitedMs: z.number().int().min(0),
  ended: z.boolean(),
});
export type WaitWire = z.infer<typeof WaitWireSchema>;

/** The words a wait is shown with, after `seconds` of it. */
export function waitWords(wait: Pick<KernelWait, "what" | "ahead">, seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const sofar = s >= 1 ? ` (${s} s so far)` : "";
  if (wait.what === "notebook_start") return `Starting a notebook${sofar}…`;
  const ahead = wait.ahead !== null && wait.ahead > 0 ? `, ${wait.ahead} ahead` : "";
  return `Waiting for a free kernel${ahead}${sofar}…`;
}
