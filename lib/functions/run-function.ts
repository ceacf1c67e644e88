import path from "node:path";
import type { BlobStore } from "@/lib/db/blobs";
import type { Db } from "@/lib/db/database";
import { storeGeneratedImage } from "@/lib/files/generated";
import { readWorkspaceFile, writeWorkspaceFile } from "@/lib/files/workspace-fs";
import type { KernelHandle } from "@/lib/kernels/kernel-handle";
import type { KernelRegistry } from "@/lib/kernels/registry";
import { workspaceName } from "@/lib/files/workspace-path";
import type { Execution } from "@/lib/protocol/contexts";
import { cellFailure, chunkCell, outcomeOrder, overCaps, parseOutcome, RESULT_MIME, stagedInputName, type FunctionError } from "./function-outcome";

export type { FunctionError, FunctionErrorKind } from "./function-outcome";

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
export interface FunctionRunnerDeps {
  kernels: KernelRegistry;
  db: Db;
  blobs: BlobStore;
}

/** Which function to run: the session it belongs to, its name and one version's code. */
export interface FunctionSource {
  sessionId: string;
  name: string;
  code: string;
}

/** The file the function is called with: it is written into the kernel's workspace under `name` and the function gets that path. */
export interface FunctionInput {
  name: string;
  bytes: Uint8Array;
}

export interface FunctionLimits {
  /** Wall-clock limit of one call; on expiry the kernel is interrupted (and killed if that fails). */
  timeoutMs: number;
  /** Characters the function may print (stdout and stderr together); past it the call fails with output_too_large. */
  maxOutputChars: number;
  /** Characters the result may take as JSON; past it the call fails with output_too_large (checked in the kernel). */
  maxResultChars: number;
  /** Images the function saved that are kept (the rest are ignored). */
  maxImages: number;
  /** Bytes of one saved image that are read back. */
  maxImageBytes: number;
}

export const DEFAULT_FUNCTION_LIMITS: FunctionLimits = {
  timeoutMs: 60_000,
  maxOutputChars: 1_000_000,
  maxResultChars: 10_000_000,
  maxImages: 8,
  maxImageBytes: 50 * 1024 * 1024,
};

export interface CallOptions {
  limits?: Partial<FunctionLimits>;
  signal?: AbortSignal;
}

export interface FunctionImage {
  fileId: string;
  url: string;
  name: string;
}

export interface FunctionRunResult {
  /** The return value made JSON-safe in the kernel (null when the call failed). */
  result: unknown;
  stdout: string;
  /** Images the function saved in its working directory, stored as the session's generated files. */
  images: FunctionImage[];
  seconds: number;
  error?: FunctionError;
}

/** Told of each item of a chunk as it ends, in order, once its saved images are stored. */
export type ItemListener = (index: number, outcome: FunctionRunResult) => void | Promise<void>;

export interface ChunkOptions extends CallOptions {
  /** Called for each finished item, in order, before callChunk resolves. */
  onItem?: ItemListener;
}

export interface FunctionRunner {
  call(input: FunctionInput, options?: CallOptions): Promise<FunctionRunResult>;
  /**
   * Runs several inputs in one kernel call, each with its own timeout, caps and outcome. Resolves
   * with the outcomes of the items that ended, in order: a prefix of `inputs`. The rest (after a
   * timeout, a crash or an output overflow, which replace the kernel) were not run: call again
   * with them. At least one item always ends, so calling again always gets further.
   */
  callChunk(inputs: readonly FunctionInput[], options?: ChunkOptions): Promise<FunctionRunResult[]>;
  /** Gives the kernel back (it is shut down, never pooled). Always call it. */
  close(): Promise<void>;
  /** The Jupyter id of the kernel held now (null between a dirty call and the next, which takes a new one). */
  kernelId(): string | null;
}

const IMAGE_EXT = new Map([
  [".png", "image/png"],
  [".jpg", "image/jpeg"],
  [".jpeg", "image/jpeg"],
] as const);

/** Errors after which the kernel may hold a half-finished state, so it is not used again. */
const DIRTY = new Set(["timeout", "crashed", "output_too_large", "cancelled"]);

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
      await lease?.release();
      lease = await KernelLease.take(deps.kernels);
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
        lease = await KernelLease.take(deps.kernels);
      } catch {
        return outcomes; // no kernel now: the item stays unfinished, and the caller runs it again
      }
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

/** An isolated kernel held outside `KernelRegistry.isolated`'s callback, until released. */
class KernelLease {
  private constructor(
    readonly kernel: KernelHandle,
    private readonly done: () => void,
    private readonly finished: Promise<unknown>,
  ) {}

  static take(kernels: KernelRegistry): Promise<KernelLease> {
    return new Promise<KernelLease>((resolve, reject) => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const finished = kernels
        .isolated(null, async (kernel) => {
          resolve(new KernelLease(kernel, release, finished));
          await held;
        })
        .catch(reject);
    });
  }

  async release(): Promise<void> {
    this.done();
    await this.finished;
  }
}

/**
 * One kernel call over a chunk. The kernel publishes each item's outcome as it ends; the item's
 * clock starts at the call for the first and at the previous outcome for the others, and on
 * expiry the kernel is interrupted (the call's own timeout is only a backstop). `clean` is false
 * when the kernel must not be used again; `unsure` is the item running when a kernel of several
 * items died (not yet blamed: see the caller).
 */
async function chunkInKernel(
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

/**
 * Why the item that was running when the call ended did not report; null when it is not to
 * blame (its predecessor's clock ran out as that one's outcome was on its way: it is run again).
 */
function itemEnding(
  execution: Execution,
  at: { timedOut: number; next: number; cancelled: boolean; endedByOverflow: boolean; limits: FunctionLimits; wallSeconds: number },
): FunctionRunResult | null {
  const failed = { result: null, stdout: "", images: [], seconds: at.wallSeconds };
  if (at.timedOut === at.next) {
    const seconds = Math.round(at.limits.timeoutMs / 100) / 10;
    return { ...failed, error: { kind: "timeout", message: `The function ran longer than ${seconds} s on this file and was stopped.` } };
  }
  if (at.cancelled) return { ...failed, error: { kind: "cancelled", message: "Cancelled while it ran." } };
  if (at.timedOut >= 0) return null;
  if (!execution.error && at.endedByOverflow) return null; // the kernel ended the chunk itself: the rest run again
  const { error, stdout } = cellFailure(execution, at.wallSeconds);
  return { ...failed, stdout, error };
}

/** Names Argus keeps in a function kernel's workspace (staged inputs, saved pictures moved aside). */
const ARGUS_OWN_PREFIX = ".argus-";

/** Writes a chunk's inputs into the kernel's workspace; returns the items that could not be given, with why. */
async function writeInputs(kernel: KernelHandle, inputs: readonly FunctionInput[]): Promise<Map<number, FunctionError>> {
  const refused = new Map<number, FunctionError>();
  await Promise.all(
    inputs.map(async (input, n) => {
      try {
        workspaceName(input.name); // the name the function sees: a plain file name
        // …and not one of Argus's own in the workspace: renamed in at its turn, `.argus-input-1`
        // would overwrite the next item's staged input, and that item would run on this file.
        if (input.name.startsWith(ARGUS_OWN_PREFIX)) throw new Error(`names starting with ${ARGUS_OWN_PREFIX} are Argus's own in the kernel's workspace; rename the file`);
        // Through the kernel when its host does not share Argus's disk (ARGUS_WORKSPACE_TRANSPORT=kernel).
        if (kernel.files) await kernel.files.push(stagedInputName(n), input.bytes);
        else await writeWorkspaceFile(kernel.workspace, stagedInputName(n), input.bytes);
      } catch (error) {
        refused.set(n, { kind: "bad_input", message: `The file could not be given to the function: ${(error as Error).message}` });
      }
    }),
  );
  return refused;
}

async function storeSavedImages(deps: FunctionRunnerDeps, fn: FunctionSource, kernel: KernelHandle, names: string[], limits: FunctionLimits): Promise<FunctionImage[]> {
  const images: FunctionImage[] = [];
  for (const name of names) {
    if (images.length >= limits.maxImages) break;
    const mime = IMAGE_EXT.get(path.extname(name).toLowerCase() as ".png");
    if (!mime) continue;
    let bytes: Buffer;
    try {
      bytes = kernel.files ? await kernel.files.pull(name, limits.maxImageBytes) : await readWorkspaceFile(kernel.workspace, name, { maxBytes: limits.maxImageBytes });
    } catch {
      continue; // too big, a link, gone: not an image the function gave us
    }
    // The kernel moved it aside as `.argus-saved/<index>-<name>`; people see the name it gave.
    const shown = path.basename(name).replace(/^\d+-/, "");
    // Header checked now; decoded whole (and its thumbnail made) when first requested.
    const stored = await storeGeneratedImage(deps, fn.sessionId, bytes, { name: shown, mime, label: `${fn.name}: ${shown}` }, { thumbnail: "lazy" });
    if (stored) images.push({ fileId: stored.fileId, url: stored.url, name: shown });
  }
  return images;
}
