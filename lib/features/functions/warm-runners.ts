import { openFunctionRunner, runFunction, type CallOptions, type FunctionInput, type FunctionRunner, type FunctionRunnerDeps, type FunctionRunResult, type FunctionSource } from "./run-function";
import { getSession } from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import { kernelCpuSeconds } from "@/lib/engines/kernels/kernel-cpu";
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
  /** The kernel's CPU seconds as its last call ended (null where the host cannot tell). */
  restCpu: number | null;
  /** Checks the idle kernel (its idle time, its CPU) while no call has it. */
  watch: NodeJS.Timeout | null;
}

/** How often an idle warm kernel is looked at. */
const WATCH_MS = 1000;
/**
 * CPU seconds an idle kernel may use before it is taken for still running the function's work
 * (a thread or a process left behind, outside any call's time limit). An idle ipykernel uses
 * none measurable; a thread left spinning used 0.3–0.5 s each second on the loaded 2-core machine.
 */
const IDLE_CPU_ALLOWANCE_SECONDS = 0.5;

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
 * A kernel that keeps using CPU while no call has it (work the function left running, past its
 * call's time limit) is given back as soon as the host sees it (kernel-cpu.ts), which shuts that
 * work down with it; where the host cannot tell (no cgroup per kernel), only the idle time bounds it.
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
      this.unwatch(slot);
      slot.busy = true;
      if (await this.workedWhileIdle(slot)) {
        this.o.log?.(`[functions] a warm kernel of ${fn.name} kept working between calls; this call gets a new one`);
        void this.retire(slot);
      }
      // Given back while it was looked at (it worked, its session went, the server is closing):
      // a closed runner would take a kernel nobody gives back.
      if (!this.slots.includes(slot)) {
        if (this.closed) return runFunction(this.deps, fn, input, options);
        slot = this.open(key, fn);
      }
    } else {
      if (choice.kind === "replace") void this.retire(this.slots[choice.index]!);
      slot = this.open(key, fn);
    }
    let kept = false;
    try {
      const out = await slot.runner.call(input, options);
      // A session deleted while its call ran, or just before it began (the request was authorized
      // first), keeps no kernel: closeSession has come and gone.
      kept = await this.sessionExists(fn.sessionId);
      if (kept) slot.restCpu = await this.cpuOf(slot).catch(() => null);
      return out;
    } finally {
      slot.busy = false;
      slot.lastUsedMs = Date.now();
      // No kernel could be had (the cap), or its session is gone: nothing worth keeping.
      if (!kept) void this.retire(slot);
      else if (this.slots.includes(slot)) this.watch(slot);
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

  private open(key: string, fn: FunctionSource): Slot {
    const slot: Slot = { key, sessionId: fn.sessionId, runner: openFunctionRunner(this.deps, fn), busy: true, lastUsedMs: Date.now(), restCpu: null, watch: null };
    this.slots.push(slot);
    return slot;
  }

  /** Until a call takes it: given back once unused for idleMs, or as soon as it works with no call. */
  private watch(slot: Slot): void {
    let checking = false;
    slot.watch = setInterval(
      () => {
        if (checking || slot.busy) return;
        if (Date.now() - slot.lastUsedMs >= this.o.idleMs) {
          void this.retire(slot);
          return;
        }
        checking = true;
        void this.workedWhileIdle(slot).then((worked) => {
          checking = false;
          if (!worked || slot.busy || !this.slots.includes(slot)) return;
          this.o.log?.("[functions] a warm function kernel kept working with no call running (a thread or process the function left): given back");
          void this.retire(slot);
        });
      },
      Math.min(WATCH_MS, this.o.idleMs),
    );
    slot.watch.unref();
  }

  private unwatch(slot: Slot): void {
    if (slot.watch) clearInterval(slot.watch);
    slot.watch = null;
  }

  /** Never throws: it runs from a timer (a rejection there would end the process) and before a call takes its slot. */
  private async workedWhileIdle(slot: Slot): Promise<boolean> {
    if (slot.restCpu === null) return false;
    const now = await this.cpuOf(slot).catch(() => null);
    return now !== null && now - slot.restCpu > IDLE_CPU_ALLOWANCE_SECONDS;
  }

  private async cpuOf(slot: Slot): Promise<number | null> {
    const id = slot.runner.kernelId();
    return id === null ? null : kernelCpuSeconds(id);
  }

  private async sessionExists(sessionId: string): Promise<boolean> {
    return (await getSession(this.deps.db, sessionId).catch(() => null)) !== null;
  }

  /** Forgets the slot at once (no call gets it again) and shuts its kernel down once its call, if any, ends. */
  private retire(slot: Slot): Promise<void> {
    this.unwatch(slot);
    this.slots = this.slots.filter((s) => s !== slot);
    return slot.runner.close().catch((error: unknown) => this.o.log?.(`[functions] could not give back a warm kernel: ${String(error)}`));
  }
}
