import type { KernelHandle } from "@/lib/engines/kernels/kernel-handle";
import { storeSavedImages, writeInputs } from "./function-files";
import { chunkCell, outcomeOrder, overCaps, parseOutcome, RESULT_MIME, stagedInputName } from "./function-outcome";
import type { FunctionInput, FunctionLimits, FunctionRunnerDeps, FunctionRunResult, FunctionSource, ItemListener } from "./function-runner-types";
import { itemEnding } from "./item-ending";

/** Errors after which the kernel may hold a half-finished state, so it is not used again. */
const DIRTY = new Set(["timeout", "crashed", "output_too_large", "cancelled"]);

/**
 * One kernel call over a chunk. The kernel publishes each item's outcome as it ends; the item's
 * clock starts at the call for the first and at the previous outcome for the others, and on
 * expiry the kernel is interrupted (the call's own timeout is only a backstop). `clean` is false
 * when the kernel must not be used again; `unsure` is the item running when a kernel of several
 * items died (not yet blamed: see the caller).
 */
export async function chunkInKernel(
  deps: FunctionRunnerDeps,
  fn: FunctionSource,
  kernel: KernelHandle,
  inputs: readonly FunctionInput[],
  limits: FunctionLimits,
  signal: AbortSignal | undefined,
  onItem: ItemListener | undefined,
): Promise<{ outcomes: FunctionRunResult[]; clean: boolean; unsure: number | null }> {
  const refused = await writeInputs(kernel, inputs);
  const items = inputs.map((input, n) => (refused.has(n) ? (["", ""] as const) : ([stagedInputName(n), input.name] as const)));
  const outcomes: FunctionRunResult[] = [];
  let next = 0; // the item running now: the first without an outcome
  let itemStarted = Date.now();
  let timedOut = -1;
  /** The first item an out-of-order outcome put in doubt (see outcomeOrder); null while none did. */
  let tampered: number | null = null;
  const itemClock = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // After the last outcome the clock runs on until the cell ends: the cell must give control back
  // within one item's time, or it is stopped (code that forged the last outcome, then hung).
  const arm = () => {
    clearTimeout(timer);
    itemStarted = Date.now();
    const item = Math.min(next, inputs.length - 1);
    timer = setTimeout(() => {
      timedOut = item;
      itemClock.abort(new Error("item timeout"));
    }, limits.timeoutMs);
  };
  // Saved images are read and stored in order while the kernel goes on with the next item. A
  // failure is kept and thrown once the cell has ended: a rejected chain nobody awaits yet (the
  // cell still runs) is an unhandled rejection, which ends a Node process.
  let stored: Promise<void> = Promise.resolve();
  let storeFailure: { error: unknown } | null = null;
  const onDisplay = (data: Record<string, unknown>) => {
    if (data[RESULT_MIME] === undefined) return;
    const outcome = parseOutcome(data[RESULT_MIME], (Date.now() - itemStarted) / 1000);
    if (!outcome || tampered !== null) return;
    const order = outcomeOrder(next, outcome.index, inputs.length);
    if (order.kind === "tampered") {
      tampered = order.blame;
      itemClock.abort(new Error("outcome forged"));
      return;
    }
    next += 1;
    arm();
    const index = outcome.index;
    const error = refused.get(index) ?? overCaps(outcome, limits) ?? outcome.error;
    stored = stored.then(async () => {
      const images = error ? [] : await storeSavedImages(deps, fn, kernel, outcome.saved, limits);
      const stdout = outcome.stdout.slice(0, limits.maxOutputChars);
      const result: FunctionRunResult = { result: error ? null : outcome.result, stdout, images, seconds: outcome.seconds, ...(error ? { error } : {}) };
      outcomes[index] = result;
      await onItem?.(index, result);
    }).catch((failure: unknown) => {
      storeFailure ??= { error: failure };
    });
  };
  arm();
  const cell = chunkCell(fn.code, fn.name, items, limits);
  const stop = signal ? AbortSignal.any([signal, itemClock.signal]) : itemClock.signal;
  // Backstop only: every item has its own clock above.
  const backstopMs = limits.timeoutMs * (inputs.length + 1);
  let execution;
  try {
    ({ execution } = await kernel.execute(cell, { timeoutMs: backstopMs, signal: stop, onDisplay }));
  } finally {
    clearTimeout(timer);
  }
  await stored;
  if (storeFailure) throw (storeFailure as { error: unknown }).error;
  if (tampered !== null) {
    // Code in the kernel published outcomes of its own: the blamed item fails, what came after it
    // is dropped (the caller runs those again, in a fresh kernel).
    outcomes.length = tampered;
    const forged: FunctionRunResult = {
      result: null,
      stdout: "",
      images: [],
      seconds: (Date.now() - itemStarted) / 1000,
      error: { kind: "raised", message: "The function published a result of its own beside Argus's, so its results cannot be trusted; it was stopped." },
    };
    outcomes[tampered] = forged;
    await onItem?.(tampered, forged);
    return { outcomes, clean: false, unsure: null };
  }
  if (next === inputs.length && timedOut === inputs.length - 1) {
    // Every outcome came, but the cell did not end within an item's time after the last one.
    const last = inputs.length - 1;
    const seconds = Math.round(limits.timeoutMs / 100) / 10;
    const stuck: FunctionRunResult = { result: null, stdout: "", images: [], seconds: limits.timeoutMs / 1000, error: { kind: "timeout", message: `The function ran longer than ${seconds} s on this file and was stopped.` } };
    outcomes[last] = stuck;
    await onItem?.(last, stuck);
    return { outcomes, clean: false, unsure: null };
  }
  // An input the kernel itself could not put in place (not one the server refused): something the
  // function left (a working directory moved, a directory under the input's name) is in the way.
  const misplaced = outcomes.some((o, n) => o.error?.kind === "bad_input" && !refused.has(n));
  let clean = !execution.error && !kernel.lost && !misplaced && !outcomes.some((o) => o.error && DIRTY.has(o.error.kind));
  if (next < inputs.length) {
    clean = false; // the chunk ended early: an interrupt, a crash or an overflow left the kernel unsure
    const endedByOverflow = outcomes[next - 1]?.error?.kind === "output_too_large";
    const stopped = itemEnding(execution, { timedOut, next, cancelled: signal?.aborted === true, endedByOverflow, limits, wallSeconds: (Date.now() - itemStarted) / 1000 });
    if (stopped?.error?.kind === "crashed" && inputs.length > 1) return { outcomes, clean, unsure: next };
    if (stopped) {
      outcomes[next] = stopped;
      await onItem?.(next, stopped);
    }
  }
  return { outcomes, clean, unsure: null };
}
