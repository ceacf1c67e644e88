import path from "node:path";
import type { BlobStore } from "@/lib/db/blobs";
import type { Db } from "@/lib/db/database";
import { storeGeneratedImage } from "@/lib/files/generated";
import { readWorkspaceFile, writeWorkspaceFile } from "@/lib/files/workspace-fs";
import type { KernelHandle } from "@/lib/kernels/kernel-handle";
import type { KernelRegistry } from "@/lib/kernels/registry";
import { callCell, readOutcome, type FunctionError } from "./function-outcome";

export type { FunctionError, FunctionErrorKind } from "./function-outcome";

/**
 * The function runner (issue #15): runs one stored function version on one
 * file in an isolated kernel. Used by the HTTP run endpoint and by batch runs.
 *
 *   runFunction(deps, fn, input, options?)      one call, one fresh kernel
 *   openFunctionRunner(deps, fn, options?)      many calls; a kernel is reused
 *                                               while calls end cleanly, and
 *                                               replaced after a timeout, a
 *                                               crash or an output overflow
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

export interface FunctionRunner {
  call(input: FunctionInput, options?: CallOptions): Promise<FunctionRunResult>;
  /** Gives the kernel back (it is shut down, never pooled). Always call it. */
  close(): Promise<void>;
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
  const call = async (input: FunctionInput, options: CallOptions): Promise<FunctionRunResult> => {
    const limits = { ...DEFAULT_FUNCTION_LIMITS, ...defaults.limits, ...options.limits };
    const signal = options.signal ?? defaults.signal;
    if (!lease || lease.kernel.lost) {
      await lease?.release();
      lease = await KernelLease.take(deps.kernels);
    }
    const outcome = await callInKernel(deps, fn, lease.kernel, input, limits, signal);
    if (outcome.error && DIRTY.has(outcome.error.kind)) {
      const old = lease;
      lease = null;
      await old.release();
    }
    return outcome;
  };
  return {
    call(input, options = {}) {
      const next = queue.then(() => call(input, options));
      queue = next.catch(() => undefined);
      return next;
    },
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

async function callInKernel(
  deps: FunctionRunnerDeps,
  fn: FunctionSource,
  kernel: KernelHandle,
  input: FunctionInput,
  limits: FunctionLimits,
  signal: AbortSignal | undefined,
): Promise<FunctionRunResult> {
  const started = Date.now();
  try {
    // Through the kernel when its host does not share Argus's disk (ARGUS_WORKSPACE_TRANSPORT=kernel).
    if (kernel.files) await kernel.files.push(input.name, input.bytes);
    else await writeWorkspaceFile(kernel.workspace, input.name, input.bytes);
  } catch (error) {
    return { result: null, stdout: "", images: [], seconds: 0, error: { kind: "bad_input", message: `The file could not be given to the function: ${(error as Error).message}` } };
  }
  // The kernel side removes the previous call's input and files, and names the images this one saved.
  const cell = callCell(fn.code, fn.name, input.name, limits);
  const { execution } = await kernel.execute(cell, { timeoutMs: limits.timeoutMs, signal });
  const outcome = readOutcome(execution, (Date.now() - started) / 1000, limits);
  const images = kernel.lost ? [] : await storeSavedImages(deps, fn, kernel, outcome.saved, limits);
  return {
    result: outcome.result,
    stdout: outcome.stdout,
    images,
    seconds: outcome.seconds,
    ...(outcome.error ? { error: outcome.error } : {}),
  };
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
    const stored = await storeGeneratedImage(deps, fn.sessionId, bytes, { name, mime, label: `${fn.name}: ${name}` });
    if (stored) images.push({ fileId: stored.fileId, url: stored.url, name });
  }
  return images;
}
