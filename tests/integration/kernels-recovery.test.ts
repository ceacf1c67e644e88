import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import type { ManagedJupyterServer } from "@/lib/engines/kernels/jupyter-server";
import { eventually, startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

let k: KernelCore;
beforeAll(async () => {
  // An idle limit of 0.3 s so reaping can be shown quickly.
  k = await startKernelCore({ ARGUS_KERNEL_IDLE_MINUTES: "0.005" });
});
afterAll(async () => {
  await k?.close();
});

const noticesIn = async (world: KernelCore, sessionId: string) =>
  (await world.core.events.eventsAfter(sessionId, 0))
    .filter((e: ArgusEvent) => "observation" in e && e.observation === "error")
    .map((e) => ("content" in e ? e.content : ""));
const notices = (sessionId: string) => noticesIn(k, sessionId);

function pidsMentioning(text: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", "--", text], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe("kernels that go away", () => {
  it("reaps idle kernels; the next run gets a new one and the chat is told", async () => {
    const s = await k.newSession();
    await k.kernels.execute(s.id, "state = 1");
    await new Promise((r) => setTimeout(r, 400));
    // The registry's own reaper (every second here) may get there first.
    await k.kernels.reap();
    expect(k.kernels.has(s.id)).toBe(false);
    const r = await k.kernels.execute(s.id, "print('state' in globals())");
    expect(r.stdout).toBe("False\n");
    expect((await notices(s.id)).join("\n")).toMatch(/notebook was reset because it was idle/);
  });

  it("restarts a killed jupyter-server and gives live sessions new kernels, saying so", async () => {
    // Its own core, with the normal idle limit: with the 0.3 s one above, the
    // reaper may shut the kernel down before Jupyter dies, and then the chat
    // rightly says it was reset for being idle.
    const own = await startKernelCore();
    try {
      const s = await own.newSession();
      await own.kernels.execute(s.id, "before = 1");
      const jupyter = own.core.jupyter as ManagedJupyterServer;
      process.kill(jupyter.pid()!, "SIGKILL");
      await eventually(() => jupyter.restartCount === 1, 60_000);
      expect(await own.core.jupyter.status()).toBe("up");
      await eventually(async () => (await noticesIn(own, s.id)).some((n) => /Jupyter server stopped unexpectedly/.test(n)), 60_000);
      const r = await own.kernels.execute(s.id, "print('before' in globals(), 6 * 7)");
      expect(r.error).toBeNull();
      expect(r.stdout).toBe("False 42\n");
    } finally {
      await own.close();
    }
  });

  it("leaves no kernel or jupyter process behind when closed", async () => {
    const other = await startKernelCore();
    const s = await other.newSession();
    await other.kernels.execute(s.id, "1");
    expect(pidsMentioning(other.dir).length).toBeGreaterThan(0);
    await other.close();
    await eventually(() => pidsMentioning(other.dir).length === 0, 10_000);
  });
});
