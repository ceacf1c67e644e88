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

  async release(): Promise<void> {
    this.done();
    await this.finished;
  }
}
