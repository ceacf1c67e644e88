import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * Every session gets a kernel and every coder test an isolated one, so
 * anyone who can start runs could hold kernels (each up to its memory limit)
 * until the machine gives out. ARGUS_MAX_KERNELS caps them all together, and
 * past the cap the person gets a plain "busy, try again" instead.
 */

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "1", ARGUS_MAX_KERNELS: "2" });
});
afterAll(async () => {
  await k?.close();
});

describe("the live-kernel cap", () => {
  it("refuses a kernel past the cap with a readable busy error, and serves again once one is freed", async () => {
    const a = await k.newSession();
    const b = await k.newSession();
    const c = await k.newSession();
    expect((await k.kernels.execute(a.id, "print('a')")).stdout).toBe("a\n");
    // The pool refills up to the cap: b gets that kernel, even if it is still starting.
    expect((await k.kernels.execute(b.id, "print('b')")).stdout).toBe("b\n");

    const refused = await k.kernels.execute(c.id, "print('c')").catch((e: unknown) => e);
    expect(isArgusError(refused), JSON.stringify(refused)).toBe(true);
    expect((refused as { code: string }).code).toBe("unavailable:jupyter");
    expect((refused as Error).message).toMatch(/as many notebooks as it may \(2\)\. Try again in a minute/);
    const isolated = await k.kernels.isolated(c.id, async () => "ran").catch((e: unknown) => e);
    expect((isolated as { code?: string }).code).toBe("unavailable:jupyter");
    expect(k.kernels.stats().live + k.kernels.stats().pooled + k.kernels.stats().starting).toBeLessThanOrEqual(2);

    await k.kernels.release(a.id);
    expect((await k.kernels.execute(c.id, "print('c')")).stdout).toBe("c\n");
  });
});
