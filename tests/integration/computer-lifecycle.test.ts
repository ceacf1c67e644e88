/**
 * The manager's lifecycle with real Chromium processes: one context per
 * session, kept apart; idle ones reaped; a crashed browser replaced; and
 * nothing left running after closeAll.
 */
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLab, type Lab } from "../helpers/browser-lab";
import { browserManager, chromiumProcessesUnder, parentOf } from "../helpers/computer";
import { tempDir } from "../helpers/temp-dir";

const SLOW = { timeout: 20_000, interval: 100 };
let lab: Lab;
const scratch = tempDir("argus-lifecycle-");
const dir = { downloadDir: scratch.dir };

beforeAll(async () => {
  lab = await startLab();
});

afterAll(async () => {
  await lab?.close();
  scratch.cleanup();
});

describe("ComputerManager", () => {
  it("gives each session one context of its own, shared by concurrent callers", async () => {
    const manager = browserManager({ allow: lab.hostPort });
    try {
      const [a, again] = await Promise.all([manager.getComputer("a", dir), manager.getComputer("a", dir)]);
      expect(again).toBe(a);
      const b = await manager.getComputer("b", dir);
      expect(b).not.toBe(a);
      expect(manager.stats()).toEqual({ chromium: "running", sessions: 2 });
      await a.goto(lab.origin);
      await b.goto(lab.origin);
      await a.activePage!.evaluate(() => (document.cookie = "cart=3 mugs"));
      expect(await a.activePage!.evaluate(() => document.cookie)).toBe("cart=3 mugs");
      expect(await b.activePage!.evaluate(() => document.cookie)).toBe("");
      await manager.close("a");
      expect(a.closed).toBe(true);
      expect(b.closed).toBe(false);
      expect(await manager.getComputer("a", dir)).not.toBe(a);
    } finally {
      await manager.closeAll();
    }
  });

  it("reaps a session's browser once it idles past the limit, never a busy one", async () => {
    const notices: string[] = [];
    const manager = browserManager({ allow: lab.hostPort, idleMs: 10 * 60_000, onNotice: (sessionId, text) => notices.push(`${sessionId}: ${text}`) });
    try {
      const computer = await manager.getComputer("idle", dir);
      expect(await manager.reap()).toEqual([]);
      const waiting = computer.wait(1500);
      expect(await manager.reap(Date.now() + 11 * 60_000)).toEqual([]);
      await waiting;
      expect(await manager.reap(Date.now() + 11 * 60_000)).toEqual(["idle"]);
      expect(computer.closed).toBe(true);
      // The last session gone, Chromium is stopped too.
      expect(manager.stats()).toEqual({ chromium: "stopped", sessions: 0 });
      await expect.poll(() => chromiumProcessesUnder().length, SLOW).toBe(0);

      const next = await manager.getComputer("idle", dir);
      expect(next).not.toBe(computer);
      await next.goto(lab.origin);
      expect(notices).toEqual(["idle: The browser was started again because it was idle for 10 minutes and was closed to free memory; pages that were open, and their logins, are gone."]);
    } finally {
      await manager.closeAll();
    }
  });

  it("reaps on its own timer (ARGUS_BROWSER_IDLE_MINUTES)", async () => {
    const manager = browserManager({ allow: lab.hostPort, idleMs: 300 });
    try {
      const computer = await manager.getComputer("timer", dir);
      await expect.poll(() => computer.closed, SLOW).toBe(true);
    } finally {
      await manager.closeAll();
    }
  });

  it("starts Chromium again after it crashed, and says the pages were lost", async () => {
    const notices: string[] = [];
    const manager = browserManager({ allow: lab.hostPort, onNotice: (_id, text) => notices.push(text) });
    try {
      const computer = await manager.getComputer("crash", dir);
      await computer.goto(lab.origin);
      // The browser process is the one Playwright started from this process; the rest are its children.
      const browserPids = chromiumProcessesUnder().filter((pid) => parentOf(pid) === process.pid);
      expect(browserPids.length).toBe(1);
      process.kill(browserPids[0]!, "SIGKILL");
      await expect.poll(() => computer.closed, SLOW).toBe(true);
      const error = await computer.screenshot().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "unavailable:browser" });

      const next = await manager.getComputer("crash", dir);
      await next.goto(lab.origin);
      expect(await next.activePage!.title()).toBe("Lab Shop: catalogue");
      expect(notices).toEqual(["The browser was started again because Chromium stopped unexpectedly; pages that were open, and their logins, are gone."]);
    } finally {
      await manager.closeAll();
    }
  });

  it("never runs Chromium ahead of the server: as root it would raise its browser and GPU processes to nice -8", async () => {
    const manager = browserManager({ allow: lab.hostPort });
    try {
      const computer = await manager.getComputer("priority", dir);
      await computer.goto(lab.origin);
      await computer.screenshot(); // the GPU process draws it
      const own = os.getPriority(0);
      const pids = chromiumProcessesUnder();
      expect(pids.length).toBeGreaterThan(1);
      const nice = pids.flatMap((pid) => {
        try {
          return [{ pid, nice: os.getPriority(pid) }];
        } catch {
          return []; // it ended meanwhile
        }
      });
      expect(nice.filter((p) => p.nice < own)).toEqual([]);
    } finally {
      await manager.closeAll();
    }
  });

  it("leaves no Chromium process behind after closeAll", async () => {
    const manager = browserManager({ allow: lab.hostPort });
    await Promise.all(["x", "y", "z"].map((id) => manager.getComputer(id, dir)));
    expect(chromiumProcessesUnder().length).toBeGreaterThan(0);
    await manager.closeAll();
    await expect.poll(() => chromiumProcessesUnder(), SLOW).toEqual([]);
    expect(manager.stats()).toEqual({ chromium: "stopped", sessions: 0 });
  });
});
