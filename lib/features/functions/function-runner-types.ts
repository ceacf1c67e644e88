import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { FunctionError } from "./function-outcome";

/** What the function runner (run-function.ts) takes, gives back and promises. */
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
