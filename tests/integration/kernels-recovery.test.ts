import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArgusEvent } from "@/lib/protocol/events";
import type { ManagedJupyterServer } from "@/lib/kernels/jupyter-server";
import { eventually, startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

let k: KernelCore;
beforeAll(async () => {
  // An idle limit of 0.3 s so reaping can be shown quickly.
  k = await startKernelCore({ ARGUS_KERNEL_IDLE_MINUTES: "0.005" });
});
afterAll(async () => {
  await k?.close();
});

const notices = (sessionId: string) =>
  k.core.events
    .eventsAfter(sessionId, 0)
    .filter((e: ArgusEvent) => "observation" in e && e.observation === "error")
    .map((e) => ("content" in e ? e.content : ""));

function pidsMentioning(text: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", "--", text], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe("kernels that go away", () => {
  it("reaps idle kernels; the next run gets a new one and the chat is told", async () => {
    const s = k.newSession();
    await k.kernels.execute(s.id, "state = 1");
    await new Promise((r) => setTimeout(r, 400));
    // The registry's own reaper (every second here) may get there first.
    await k.kernels.reap();
    expect(k.kernels.has(s.id)).toBe(false);
    const r = await k.kernels.execute(s.id, "print('state' in globals())");
    expect(r.stdout).toBe("False\n");
    expect(notices(s.id).join("\n")).toMatch(/notebook was reset because it was idle/);
  });

  it("restarts a killed jupyter-server and gives live sessions new kernels, saying so", async () => {
    const s = k.newSession();
    await k.kernels.execute(s.id, "before = 1");
    const jupyter = k.core.jupyter as ManagedJupyterServer;
    const pid = jupyter.pid()!;
    process.kill(pid, "SIGKILL");
    await eventually(() => jupyter.restartCount === 1, 60_000);
    expect(await k.core.jupyter.status()).toBe("up");
    await eventually(() => notices(s.id).some((n) => /Jupyter server stopped unexpectedly/.test(n)), 60_000);
    const r = await k.kernels.execute(s.id, "print('before' in globals(), 6 * 7)");
    expect(r.error).toBeNull();
    expect(r.stdout).toBe("False 42\n");
  });

  it("leaves no kernel or jupyter process behind when closed", async () => {
    const other = await startKernelCore();
    const s = other.newSession();
    await other.kernels.execute(s.id, "1");
    expect(pidsMentioning(other.dir).length).toBeGreaterThan(0);
    await other.close();
    await eventually(() => pidsMentioning(other.dir).length === 0, 10_000);
  });
});
