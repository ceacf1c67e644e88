import { openFunctionRunner, runFunction, type CallOptions, type FunctionInput, type FunctionRunner, type FunctionRunnerDeps, type FunctionRunResult, type FunctionSource } from "./run-function";
import { getSession } from "@/lib/db/sessions";
import { ArgusError } from "@/lib/errors";
import { chooseWarmSlot } from "./warm-slot";

export interface WarmRunnersOptions {
  /** Kernels kept between calls at most (0: every call gets a fresh kernel). */
  max: number;
  /** How long an unused kernel is kept before it is given back. */
  idleMs: number;
  /**
   * Calls run at once at most, warm or fresh (none when absent). Each holds a kernel under
   * ARGUS_MAX_KERNELS: without a bound, one caller firing slow calls at once takes every kernel
   * and no session can start its notebook.
   */
  maxCalls?: number;
  log?: (line: string) => void;
}

interface Slot {
  key: string;
  sessionId: string;
  runner: FunctionRunner;
  busy: boolean;
  lastUsedMs: number;
  idle: NodeJS.Timeout | null;
}

/**
 * Kernels kept warm between HTTP calls of a session's function. A fresh kernel per call costs a
 * kernel start (~1.5 s with the vision preload, and the pool only refills that fast), so a script
 * calling the run endpoint in a loop got 0.4 images/s. Here a kernel is kept for one session's
 * function version, used by one call at a time, and given back after `idleMs` unused, when the
 * session is deleted, or to make room for another version (the longest unused first).
 *
 * What one call leaves is cleared by the kernel-side runner before the next (its input and saved
 * files), exactly as for a batch's items; a call that times out, crashes or overflows gets its
 * kernel replaced (openFunctionRunner). Calls of another version or session never share a kernel.
 */
export class WarmFunctionRunners {
  private slots: Slot[] = [];
  private closed = false;
  private running = 0;

  constructor(
    private readonly deps: FunctionRunnerDeps,
    private readonly o: WarmRunnersOptions,
  ) {}

  /** Kernels held now (busy or idle). */
  size(): number {
    return this.slots.length;
  }

  async call(fn: FunctionSource, input: FunctionInput, options: CallOptions = {}): Promise<FunctionRunResult> {
    const max = this.o.maxCalls ?? Infinity;
    if (this.running >= max) {
      throw new ArgusError("rate_limited:function", `The server is already running ${max} function calls, as many as it runs at once. Try again in a moment.`, { retryAfterSeconds: 1 });
    }
    this.running += 1;
    try {
      return await this.callCounted(fn, input, options);
    } finally {
      this.running -= 1;
    }
  }

  private async callCounted(fn: FunctionSource, input: FunctionInput, options: CallOptions): Promise<FunctionRunResult> {
    const key = JSON.stringify([fn.sessionId, fn.name, fn.code]);
    const choice = this.closed ? ({ kind: "fresh" } as const) : chooseWarmSlot(this.slots, key, this.o.max);
    if (choice.kind === "fresh") return runFunction(this.deps, fn, input, options);
    let slot: Slot;
    if (choice.kind === "reuse") {
      slot = this.slots[choice.index]!;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.busy = true;
    } else {
      if (choice.kind === "replace") this.retire(this.slots[choice.index]!);
      slot = { key, sessionId: fn.sessionId, runner: openFunctionRunner(this.deps, fn), busy: true, lastUsedMs: Date.now(), idle: null };
      this.slots.push(slot);
    }
    let kept = false;
    try {
      const out = await slot.runner.call(input, options);
      // A session deleted while its call ran, or just before it began (the request was authorized
      // first), keeps no kernel: closeSession has come and gone.
      kept = await this.sessionExists(fn.sessionId);
      return out;
    } finally {
      slot.busy = false;
      slot.lastUsedMs = Date.now();
      // No kernel could be had (the cap), or its session is gone: nothing worth keeping.
      if (!kept) void this.retire(slot);
      else if (this.slots.includes(slot)) {
        slot.idle = setTimeout(() => this.retire(slot), this.o.idleMs);
        slot.idle.unref();
      }
    }
  }

  /** Gives back the session's kernels (it is being deleted); a call still running ends first. */
  async closeSession(sessionId: string): Promise<void> {
    await Promise.all(this.slots.filter((s) => s.sessionId === sessionId).map((s) => this.retire(s)));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.slots].map((s) => this.retire(s)));
  }

  private async sessionExists(sessionId: string): Promise<boolean> {
    return (await getSession(this.deps.db, sessionId).catch(() => null)) !== null;
  }

  /** Forgets the slot at once (no call gets it again) and shuts its kernel down once its call, if any, ends. */
  private retire(slot: Slot): Promise<void> {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    this.slots = this.slots.filter((s) => s !== slot);
    return slot.runner.close().catch((error: unknown) => this.o.log?.(`[functions] could not give back a warm kernel: ${String(error)}`));
  }
}
