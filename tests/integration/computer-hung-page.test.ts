/**
 * A page whose script never ends: its renderer answers nothing, and DevTools waits for it
 * forever. Unchecked, the safety probe (or the title) never returns, every later action of
 * the session queues behind it, the idle reaper leaves the busy browser alone, and a core
 * spins until Argus restarts. The action's deadline closes that browser instead, and the
 * next action starts a new one. Real Chromium, the lab on loopback, a short navigation
 * timeout (the deadlines follow it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { startLab, type Lab } from "@/tests/helpers/browser-lab";
import { browserManager, centreOf } from "@/tests/helpers/computer";

let lab: Lab;
let manager: ComputerManager;
let scratch: string;

beforeAll(async () => {
  lab = await startLab();
  scratch = mkdtempSync(path.join(os.tmpdir(), "argus-hang-"));
  manager = browserManager({ allow: lab.hostPort, navigationTimeoutMs: 4000 });
});
afterAll(async () => {
  await manager?.closeAll();
  await lab?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a page whose script never ends", () => {
  it("has its browser closed when the probe gets no answer, and the next action starts a new one", async () => {
    const computer = await manager.getComputer("hang", { downloadDir: scratch });
    await computer.goto(`${lab.origin}/agent-hang.html`);
    const hang = await centreOf(computer, "#hang");
    await computer.click(hang.x, hang.y);
    // The page starts spinning a moment after the click; until it does the probe answers. Probe
    // until it meets the hung page, however busy the machine is (no fixed sleep, no clock): it
    // must then be rejected with the deadline's words, not left waiting for the test's timeout.
    let failure: unknown = null;
    while (failure === null) failure = await computer.probe(null).then(() => null, (error: unknown) => error);
    expect(failure).toMatchObject({ type: "unavailable", message: expect.stringMatching(/stopped answering/) });
    expect(computer.closed).toBe(true);

    const fresh = await manager.getComputer("hang", { downloadDir: scratch });
    expect(fresh).not.toBe(computer);
    await fresh.goto(`${lab.origin}/help.html`);
    expect(await fresh.title()).not.toBe("");
  });
});
