import type { KernelHandle } from "@/lib/engines/kernels/kernel-handle";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";

/** An isolated kernel held outside `KernelRegistry.isolated`'s callback, until released. */
export class KernelLease {
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

  /**
   * A kernel, or null once `signal` fires first. Starting a kernel can take many seconds (a busy
   * shared Jupyter took 19 s): a cancel must not wait for it, only to interrupt a cell that never
   * ran. A kernel that arrives after the cancel is let go at once.
   */
  static async takeUnlessAborted(kernels: KernelRegistry, signal: AbortSignal | undefined): Promise<KernelLease | null> {
    if (!signal) return KernelLease.take(kernels);
    if (signal.aborted) return null;
    const taking = KernelLease.take(kernels);
    let onAbort!: () => void;
    const aborted = new Promise<null>((resolve) => {
      onAbort = () => resolve(null);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const got = await Promise.race([taking, aborted]);
      if (got === null) void taking.then((late) => late.release(), () => undefined);
      return got;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  async release(): Promise<void> {
    this.done();
    await this.finished;
  }
}
