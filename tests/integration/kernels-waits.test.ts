import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WaitWire } from "@/lib/foundation/protocol/waits";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * Issue #29: a run that waits for a kernel says so while it waits. With no pool every session's
 * first cell starts a kernel cold (a real jupyter-server, a real sandboxed kernel): the chat hears
 * "starting a notebook" before that kernel exists, and the end of the wait once it does.
 */

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "0" });
});
afterAll(async () => {
  await k?.close();
});

describe("waiting for a kernel", () => {
  it("is told to the session while its kernel starts, and not when the kernel is in hand", async () => {
    const session = await k.newSession();
    const other = await k.newSession();
    const heard: { sessionId: string; wait: WaitWire; kernelHeld: boolean }[] = [];
    const unsubscribe = k.core.waits.subscribe((sessionId, wait) => heard.push({ sessionId, wait, kernelHeld: k.kernels.has(sessionId) }));
    try {
      const first = await k.kernels.execute(session.id, "print('first')");
      expect(first.stdout).toBe("first\n");
      expect(heard.map((h) => [h.sessionId, h.wait.what, h.wait.ended])).toEqual([
        [session.id, "notebook_start", false],
        [session.id, "notebook_start", true],
      ]);
      // Told while it waited: the session had no kernel yet when the beginning went out.
      expect(heard[0]!.kernelHeld).toBe(false);
      expect(heard[0]!.wait.waitedMs).toBe(0);
      expect(heard[1]!.wait.id).toBe(heard[0]!.wait.id);
      expect(heard[1]!.wait.waitedMs).toBeGreaterThan(0);

      // The session's kernel is held now: its next cell waits for nothing.
      expect((await k.kernels.execute(session.id, "print('second')")).stdout).toBe("second\n");
      expect(heard).toHaveLength(2);

      // The coder's isolated kernel comes from the same (empty) pool: its wait is told to its session too.
      expect(await k.kernels.isolated(other.id, async () => "tested")).toBe("tested");
      expect(heard.slice(2).map((h) => [h.sessionId, h.wait.what, h.wait.ended])).toEqual([
        [other.id, "notebook_start", false],
        [other.id, "notebook_start", true],
      ]);
    } finally {
      unsubscribe();
    }
    // Two deliberate cold starts: 30–36 s each were measured beside other suites at load 16–25.
  }, 300_000);
});
