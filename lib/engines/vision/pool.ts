/**
 * A bounded pool of vision worker threads and the queue in front of it.
 *
 * At most `workers` threads exist; each is spawned on demand and loads a model
 * family the first time it runs one of its tools, then keeps it warm. A call goes
 * to an idle thread that already holds its family when there is one. At most
 * `queueLimit` calls wait; one more is refused at once as busy, with a retry
 * estimate from the recent call times. Memory is thus bounded by `workers` x the
 * families' models, whatever the load.
 */
import type { VisionFamily } from "./catalogue";
import { VisionError } from "./errors";
import type { RunRequest, WorkerImage, WorkerReply } from "./protocol";

/** What the pool needs of a worker thread (node's Worker, or anything speaking the protocol). */
export interface WorkerHandle {
  postMessage(message: RunRequest, transfer: ArrayBuffer[]): void;
  on(event: "message", listener: (reply: WorkerReply) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  on(event: "exit", listener: (code: number) => void): void;
  ref(): void;
  unref(): void;
  terminate(): Promise<number>;
}

export interface PoolJob {
  tool: string;
  family: VisionFamily;
  params: Record<string, unknown>;
  image: WorkerImage;
}

export type FamilyState = { state: "loading" | "loaded" | "failed"; models: string[]; error?: string };

interface Waiting {
  id: number;
  job: PoolJob;
  resolve: (value: { result: unknown; seconds: number }) => void;
  reject: (error: VisionError) => void;
  settled: boolean;
  cleanup: () => void;
}

interface Slot {
  worker: WorkerHandle;
  families: Set<VisionFamily>;
  current?: Waiting;
}

export class VisionPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Waiting[] = [];
  private readonly familyStates = new Map<VisionFamily, FamilyState>();
  private readonly recentSeconds: number[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly options: { workers: number; queueLimit: number; spawn: () => WorkerHandle },
  ) {}

  submit(job: PoolJob, signal?: AbortSignal): Promise<{ result: unknown; seconds: number }> {
    if (this.closed) return Promise.reject(new VisionError("unavailable", "The vision service has been shut down."));
    if (signal?.aborted) return Promise.reject(abortedError(job.tool));
    const idle = this.slots.some((slot) => !slot.current) || this.slots.length < this.options.workers;
    if (!idle && this.waiting.length >= this.options.queueLimit) {
      const retryAfterSeconds = this.retryEstimate();
      return Promise.reject(
        new VisionError(
          "busy",
          `The vision models are busy (${this.running()} running, ${this.waiting.length} waiting); try again in about ${retryAfterSeconds} s.`,
          { retryAfterSeconds },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const entry: Waiting = { id: this.nextId++, job, resolve, reject, settled: false, cleanup: () => {} };
      if (signal) {
        const onAbort = () => this.abandon(entry);
        signal.addEventListener("abort", onAbort, { once: true });
        entry.cleanup = () => signal.removeEventListener("abort", onAbort);
      }
      this.waiting.push(entry);
      this.dispatch();
    });
  }

  stats(): { running: number; waiting: number; limit: number } {
    return { running: this.running(), waiting: this.waiting.length, limit: this.options.queueLimit };
  }

  families(): ReadonlyMap<VisionFamily, FamilyState> {
    return this.familyStates;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.waiting.splice(0)) {
      settle(entry, () => entry.reject(new VisionError("unavailable", "The vision service is shutting down.")));
    }
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      if (slot.current) {
        const entry = slot.current;
        settle(entry, () => entry.reject(new VisionError("unavailable", "The vision service is shutting down.")));
      }
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    this.familyStates.clear();
  }

  private running(): number {
    return this.slots.filter((slot) => slot.current).length;
  }

  /** A caller that gave up: dropped from the queue, or (when already running) answered now and the result discarded. */
  private abandon(entry: Waiting): void {
    const index = this.waiting.indexOf(entry);
    if (index >= 0) this.waiting.splice(index, 1);
    settle(entry, () => entry.reject(abortedError(entry.job.tool)));
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && !this.closed) {
      const entry = this.waiting[0]!;
      let slot: Slot | undefined;
      try {
        slot = this.pickSlot(entry.job.family);
      } catch (error) {
        // No worker thread could start: answer the call rather than leave it waiting forever.
        this.waiting.shift();
        const failure = error instanceof VisionError ? error : new VisionError("unavailable", `The vision models cannot start: ${String(error)}`);
        settle(entry, () => entry.reject(failure));
        continue;
      }
      if (!slot) return;
      this.waiting.shift();
      slot.current = entry;
      slot.families.add(entry.job.family);
      slot.worker.ref();
      const image = ownBuffer(entry.job.image);
      const request: RunRequest = { type: "run", id: entry.id, ...entry.job, image };
      slot.worker.postMessage(request, [image.data.buffer as ArrayBuffer]);
    }
  }

  private pickSlot(family: VisionFamily): Slot | undefined {
    const idle = this.slots.filter((slot) => !slot.current);
    const warm = idle.find((slot) => slot.families.has(family));
    if (warm) return warm;
    if (this.slots.length < this.options.workers) return this.spawn();
    return idle.sort((a, b) => a.families.size - b.families.size)[0];
  }

  private spawn(): Slot {
    const slot: Slot = { worker: this.options.spawn(), families: new Set() };
    this.slots.push(slot);
    slot.worker.on("message", (reply) => this.onReply(slot, reply));
    slot.worker.on("error", (error) => this.onWorkerGone(slot, `its worker thread failed: ${error.message}`));
    slot.worker.on("exit", (code) => this.onWorkerGone(slot, `its worker thread stopped (exit code ${code})`));
    return slot;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === "model") {
      this.familyStates.set(reply.family, { state: reply.state, models: reply.models, error: reply.error });
      return;
    }
    const entry = slot.current;
    if (!entry || entry.id !== reply.id) return;
    slot.current = undefined;
    slot.worker.unref();
    if (reply.type === "done") {
      this.recentSeconds.push(reply.seconds);
      if (this.recentSeconds.length > 20) this.recentSeconds.shift();
      settle(entry, () => entry.resolve({ result: reply.result, seconds: reply.seconds }));
    } else {
      settle(entry, () => entry.reject(new VisionError(reply.code, reply.message)));
    }
    this.dispatch();
  }

  private onWorkerGone(slot: Slot, reason: string): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    for (const family of slot.families) {
      if (!this.slots.some((other) => other.families.has(family))) this.familyStates.delete(family);
    }
    const entry = slot.current;
    if (entry) settle(entry, () => entry.reject(new VisionError("failed", `${entry.job.tool} did not finish: ${reason}.`)));
    void slot.worker.terminate();
    this.dispatch();
  }

  /** Seconds until a place is likely free: the queue ahead shared by the workers, at the recent mean call time. */
  private retryEstimate(): number {
    const mean = this.recentSeconds.length
      ? this.recentSeconds.reduce((sum, value) => sum + value, 0) / this.recentSeconds.length
      : 1;
    return Math.max(1, Math.ceil((mean * (this.waiting.length + 1)) / this.options.workers));
  }
}

/** The pixels in a buffer of their own, so transferring it detaches nothing else (small Node Buffers share a pool). */
function ownBuffer(image: WorkerImage): WorkerImage {
  const { data } = image;
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer) return image;
  return { ...image, data: new Uint8Array(data) };
}

function settle(entry: Waiting, action: () => void): void {
  if (entry.settled) return;
  entry.settled = true;
  entry.cleanup();
  action();
}

function abortedError(tool: string): VisionError {
  return new VisionError("aborted", `${tool} was cancelled before it finished.`);
}
