import { afterAll, beforeAll } from "vitest";
import { WarmFunctionRunners } from "@/lib/features/functions/warm-runners";
import { startKernelCore, type KernelCore } from "./kernel-core";

/** Warm function kernels over a test core's real kernels: 2 kept, a minute idle, unless `options` says otherwise. */
export function warmRunners(k: KernelCore, options: { max?: number; idleMs?: number } = {}): WarmFunctionRunners {
  return new WarmFunctionRunners({ kernels: k.kernels, db: k.core.db, blobs: k.core.blobs }, { max: options.max ?? 2, idleMs: options.idleMs ?? 60_000 });
}

/** A three-byte file a function is called with (its bytes read back as "010203"). */
export const tinyInput = (name = "in.png") => ({ name, bytes: new Uint8Array([1, 2, 3]) });

/**
 * For a test file: a real kernel core (2 pooled kernels) and warm runners over it, started before
 * the file's tests and closed after them. Read `t.k` and `t.warm` inside tests.
 */
export function warmCoreForFile(): { k: KernelCore; warm: WarmFunctionRunners } {
  const t = {} as { k: KernelCore; warm: WarmFunctionRunners };
  beforeAll(async () => {
    t.k = await startKernelCore({ ARGUS_KERNEL_POOL: "2" });
    t.warm = warmRunners(t.k);
  });
  afterAll(async () => {
    await t.warm?.close();
    await t.k?.close();
  });
  return t;
}
