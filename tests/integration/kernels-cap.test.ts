import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * Every session gets a kernel and every coder test an isolated one, so
 * anyone who can start runs could hold kernels (each up to its memory limit)
 * until the machine gives out. ARGUS_MAX_KERNELS caps them all together, and
 * past the cap the person gets a plain "busy, try again" instead, unless a session's notebook
 * has sat idle long enough (ARGUS_KERNEL_YIELD_IDLE_SECONDS) to give its place.
 */

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "1", ARGUS_MAX_KERNELS: "2" });
});
let yielding: KernelCore | undefined;
afterAll(async () => {
  await Promise.all([k?.close(), yielding?.close()]);
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

describe("a notebook idle long enough gives its place at the cap", () => {
  it("the chat idle longest loses its notebook (and is told at its next run) instead of a new chat being refused", async () => {
    yielding = await startKernelCore({ ARGUS_KERNEL_POOL: "0", ARGUS_MAX_KERNELS: "2", ARGUS_KERNEL_YIELD_IDLE_SECONDS: "1" });
    const w = yielding;
    const [a, b, c] = [await w.newSession(), await w.newSession(), await w.newSession()];
    await w.kernels.execute(a.id, "kept = 'a'");
    await w.kernels.execute(b.id, "kept = 'b'");
    // b runs a long cell: a busy kernel never gives its place, however long since it started.
    const longCell = w.kernels.execute(b.id, "import time; time.sleep(3); print(kept)");
    // Idle for the yield time is the condition itself: a has been idle at least 1 s after this.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await w.kernels.execute(c.id, "print('c')")).stdout).toBe("c\n");
    expect(w.kernels.has(a.id)).toBe(false);
    expect((await longCell).stdout).toBe("b\n");
    const notices = (await w.core.events.eventsAfter(a.id, 0))
      .filter((e: ArgusEvent) => "observation" in e && e.observation === "error")
      .map((e) => ("content" in e ? e.content : ""));
    expect(notices.join("\n")).toBe("");
    // a's next cell gets a new kernel (b or c gives its place the same way), and a's chat says why.
    await new Promise((r) => setTimeout(r, 1100));
    const again = await w.kernels.execute(a.id, "print('kept' in globals())");
    expect(again.stdout).toBe("False\n");
    const after = (await w.core.events.eventsAfter(a.id, 0))
      .filter((e: ArgusEvent) => "observation" in e && e.observation === "error")
      .map((e) => ("content" in e ? e.content : ""));
    expect(after.join("\n")).toMatch(/notebook was reset because Argus needed its place for another chat's notebook \(at most 2 run at once\)/);
  });
});
