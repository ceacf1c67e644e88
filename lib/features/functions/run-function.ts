/**
 * The function runner (issue #15): runs one stored function version on one
 * file in an isolated kernel. Used by the HTTP run endpoint and by batch runs.
 *
 *   runFunction(deps, fn, input, options?)      one call, one fresh kernel
 *   openFunctionRunner(deps, fn, options?)      many calls; a kernel is reused
 *                                               while calls end cleanly, and
 *                                               replaced after a timeout, a
 *                                               crash or an output overflow;
 *                                               callChunk sends several inputs
 *                                               in one kernel call (batches)
 *
 * Never throws for what the function does (it fails its own call with
 * `error`); throws ArgusError only when no kernel can be had (the cap is
 * reached: "unavailable:jupyter").
 */
import { chunkInKernel } from "./chunk-call";
import type { CallOptions, ChunkOptions, FunctionInput, FunctionRunner, FunctionRunnerDeps, FunctionRunResult, FunctionSource } from "./function-runner-types";
import { DEFAULT_FUNCTION_LIMITS } from "./function-runner-types";
import { cancelledWhileRunning } from "./item-ending";
import { KernelLease } from "./kernel-lease";

export type { FunctionError, FunctionErrorKind } from "./function-outcome";
export {
  DEFAULT_FUNCTION_LIMITS,
  type CallOptions,
  type ChunkOptions,
  type FunctionImage,
  type FunctionInput,
  type FunctionLimits,
  type FunctionRunner,
  type FunctionRunnerDeps,
  type FunctionRunResult,
  type FunctionSource,
  type ItemListener,
} from "./function-runner-types";

/** One call in one fresh isolated kernel. */
export async function runFunction(deps: FunctionRunnerDeps, fn: FunctionSource, input: FunctionInput, options: CallOptions = {}): Promise<FunctionRunResult> {
  const runner = openFunctionRunner(deps, fn);
  try {
    return await runner.call(input, options);
  } finally {
    await runner.close();
  }
}

/**
 * A runner for many calls of one function (a batch). Calls are run one at a
 * time; run several runners for parallelism (each holds one kernel under the
 * registry's cap).
 */
export function openFunctionRunner(deps: FunctionRunnerDeps, fn: FunctionSource, defaults: CallOptions = {}): FunctionRunner {
  let lease: KernelLease | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (inputs: readonly FunctionInput[], options: ChunkOptions): Promise<FunctionRunResult[]> => {
    const limits = { ...DEFAULT_FUNCTION_LIMITS, ...defaults.limits, ...options.limits };
    const signal = options.signal ?? defaults.signal;
    if (!lease || lease.kernel.lost) {
      const old = lease;
      lease = null;
      await old?.release();
      const asked = Date.now();
      lease = await KernelLease.takeUnlessAborted(deps.kernels, signal);
      if (!lease) {
        // Cancelled while its kernel was starting: the first item ends as if interrupted, the rest run again (or are cancelled with the batch).
        const cancelled = cancelledWhileRunning((Date.now() - asked) / 1000);
        await options.onItem?.(0, cancelled);
        return [cancelled];
      }
    }
    const { outcomes, clean, unsure } = await chunkInKernel(deps, fn, lease.kernel, inputs, limits, signal, options.onItem);
    if (!clean) {
      const old = lease;
      lease = null;
      await old.release();
    }
    if (unsure !== null) {
      // The kernel died with this item unreported, but it may not be the one to blame: an outcome
      // still in the kernel's send queue dies with the process when the next item calls os._exit.
      // Alone in a fresh kernel, it gives its own verdict.
      try {
        lease = await KernelLease.takeUnlessAborted(deps.kernels, signal);
      } catch {
        return outcomes; // no kernel now: the item stays unfinished, and the caller runs it again
      }
      if (!lease) return outcomes; // cancelled meanwhile: the caller settles the item with its batch
      const alone = await chunkInKernel(deps, fn, lease.kernel, [inputs[unsure]!], limits, signal, options.onItem && ((_, out) => options.onItem!(unsure, out)));
      if (!alone.clean) {
        const old = lease;
        lease = null;
        await old.release();
      }
      outcomes.push(...alone.outcomes);
    }
    return outcomes;
  };
  const queued = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    call: (input, options = {}) => queued(async () => (await run([input], options))[0]!),
    callChunk: (inputs, options = {}) => queued(() => (inputs.length === 0 ? Promise.resolve([]) : run(inputs, options))),
    kernelId: () => lease?.kernel.id ?? null,
    async close() {
      await queue;
      const old = lease;
      lease = null;
      await old?.release();
    },
  };
}
