/**
 * Where the browser may go, in real Chromium: ARGUS_BROWSER_BLOCK on
 * resources and pages, the address rule on loopback in its many spellings and
 * behind names, redirects and WebSockets (the egress proxy's part), and the
 * schemes a page may not be opened with. Every refusal is checked on the far
 * side too: the server that should not be reached records every request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { startLab, type Lab } from "../helpers/browser-lab";
import { browserManager, centreOf, textOf } from "../helpers/computer";
import { refusal } from "../helpers/media";
import { tempDir } from "../helpers/temp-dir";

let lab: Lab;
/** The far side: reached as http://localhost:<port>, the lab pages' "blocked" origin. */
let far: Lab;
const downloads = tempDir("argus-network-");
/** One manager (one Chromium) per policy, shared by the tests that use it: launches are the slow part. */
const managers = new Map<string, ComputerManager>();
let sessions = 0;

function computerWith(o: { block?: string; allow?: string }) {
  const key = JSON.stringify(o);
  if (!managers.has(key)) managers.set(key, browserManager(o));
  sessions += 1;
  return managers.get(key)!.getComputer(`session-${sessions}`, { downloadDir: downloads.dir });
}

const SLOW = { timeout: 15_000 };

beforeAll(async () => {
  far = await startLab();
  lab = await startLab({ blockedOrigin: `http://localhost:${far.port}` });
});

afterAll(async () => {
  await Promise.all([...managers.values()].map((m) => m.closeAll()));
  await lab?.close();
  await far?.close();
  downloads.cleanup();
});

describe("ARGUS_BROWSER_BLOCK", () => {
  it("(control) without a block list the tracker loads from the far side", async () => {
    const computer = await computerWith({ allow: `${lab.hostPort},localhost:${far.port}` });
    await computer.goto(`${lab.origin}/tracker.html`);
    await expect.poll(() => textOf(computer, "#status"), SLOW).toBe("tracker loaded");
    expect(far.hits).toContain("GET /pixel.png");
    far.hits.length = 0;
  });

  it("refuses a blocked domain's resource cleanly, and the page carries on", async () => {
    const computer = await computerWith({ block: "localhost", allow: `${lab.hostPort},localhost:${far.port}` });
    await computer.goto(`${lab.origin}/tracker.html`);
    await expect.poll(() => textOf(computer, "#status"), SLOW).toBe("tracker failed");
    // data: resources of an allowed page are fine.
    expect(await computer.activePage!.evaluate(() => (document.getElementById("inline") as HTMLImageElement).naturalWidth)).toBe(1);
    expect(computer.takeRefusals()).toContainEqual({
      target: `http://localhost:${far.port}/pixel.png`,
      reason: "blocked",
      message: "localhost is blocked by ARGUS_BROWSER_BLOCK.",
      topLevel: false,
    });
    expect((await computer.screenshot()).width).toBe(1024);
    expect(far.hits).toEqual([]);
  });

  it("refuses a link to a blocked domain, and goto says why in words", async () => {
    const computer = await computerWith({ block: "localhost", allow: `${lab.hostPort},localhost:${far.port}` });
    await computer.goto(lab.origin);
    const sponsor = await centreOf(computer, "#to-sponsor");
    await computer.click(sponsor.x, sponsor.y);
    expect(computer.takeRefusals()).toContainEqual(expect.objectContaining({ target: `http://localhost:${far.port}/sponsor.html`, reason: "blocked", topLevel: true }));
    await computer.back();
    expect(computer.currentUrl()).toBe(`${lab.origin}/`);
    const lamp = await centreOf(computer, "#green-lamp");
    await computer.click(lamp.x, lamp.y);
    expect(await textOf(computer, "#clicked")).toBe("clicked green-lamp");

    const error = await refusal(computer.goto(`http://LOCALHOST:${far.port}/sponsor.html`));
    expect(error.code).toBe("forbidden:browser");
    expect(error.message).toBe("localhost is blocked by ARGUS_BROWSER_BLOCK.");
    expect(far.hits).toEqual([]);
  });
});

describe("the address rule", () => {
  it("refuses loopback, however it is spelled, unless ARGUS_BROWSER_ALLOW lists it", async () => {
    const before = lab.hits.length;
    const closed = await computerWith({});
    for (const url of [lab.origin, `http://0x7f.1:${lab.port}/`, `http://2130706433:${lab.port}/`, `http://[::ffff:127.0.0.1]:${lab.port}/`, `http://0.0.0.0:${lab.port}/`]) {
      const error = await refusal(closed.goto(url));
      expect(error.code, url).toBe("forbidden:browser");
      expect(error.message, url).toMatch(/ is (a loopback|an unspecified) address.*, which the browser may not reach; list .* in ARGUS_BROWSER_ALLOW/);
    }
    expect((await refusal(closed.goto(lab.origin))).message).toBe(
      `127.0.0.1 is a loopback address (this machine), which the browser may not reach; list ${lab.hostPort} in ARGUS_BROWSER_ALLOW to let the browser reach it.`,
    );
    expect(lab.hits.slice(before)).toEqual([]);

    const open = await computerWith({ allow: lab.hostPort });
    await open.goto(lab.origin);
    expect(await open.activePage!.title()).toBe("Lab Shop: catalogue");
    // Allowed on its port only.
    expect((await refusal(open.goto(far.origin))).code).toBe("forbidden:browser");
    expect(far.hits).toEqual([]);
  });

  it("refuses a name that resolves to loopback, as a page and as a resource", async () => {
    const computer = await computerWith({ allow: lab.hostPort });
    expect((await refusal(computer.goto(`http://localhost:${lab.port}/`))).message).toBe(
      `localhost resolves to 127.0.0.1, a loopback address (this machine), which the browser may not reach; list localhost:${lab.port} in ARGUS_BROWSER_ALLOW to let the browser reach it.`,
    );
    await computer.goto(`${lab.origin}/tracker.html`);
    await expect.poll(() => textOf(computer, "#status"), SLOW).toBe("tracker failed");
    expect(computer.takeRefusals()).toContainEqual(expect.objectContaining({ target: `http://localhost:${far.port}/pixel.png`, reason: "address", topLevel: false }));
    expect(far.hits).toEqual([]);
  });

  it("refuses a redirect from an allowed page to loopback: routing never sees it, the proxy does", async () => {
    const computer = await computerWith({ allow: lab.hostPort });
    const error = await refusal(computer.goto(`${lab.origin}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${far.port}/secret`)}`));
    expect(error.code).toBe("forbidden:browser");
    expect(error.message).toBe(`127.0.0.1 is a loopback address (this machine), which the browser may not reach; list ${far.hostPort} in ARGUS_BROWSER_ALLOW to let the browser reach it.`);
    await computer.goto(lab.origin);
    const fetched = await computer.activePage!.evaluate(async (to) => {
      try {
        const answer = await fetch(`/redirect?to=${encodeURIComponent(to)}`);
        return `${answer.status} ${await answer.text()}`;
      } catch (e) {
        return `failed: ${String(e)}`;
      }
    }, `http://localhost:${far.port}/secret`);
    expect(fetched).not.toContain("the secret");
    expect(far.hits).toEqual([]);
  });

  it("refuses a WebSocket to loopback at the proxy", async () => {
    const computer = await computerWith({ allow: lab.hostPort });
    await computer.goto(lab.origin);
    const outcome = await computer.activePage!.evaluate(
      (port) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}/socket.io/`);
          socket.onopen = () => resolve("open");
          socket.onclose = () => resolve("closed");
        }),
      far.port,
    );
    expect(outcome).toBe("closed");
    expect(computer.takeRefusals()).toContainEqual(expect.objectContaining({ target: far.hostPort, reason: "address", topLevel: null }));
    expect(far.hits).toEqual([]);
  });
});

describe("schemes", () => {
  it("never opens file:, data:, chrome: or view-source: pages", async () => {
    const computer = await computerWith({ allow: lab.hostPort });
    for (const [url, words] of [
      ["file:///etc/passwd", "file: pages can't be opened in Argus's browser; only http and https pages can."],
      ["data:text/html,<h1>hi</h1>", "data: pages can't be opened"],
      ["chrome://version", "chrome: pages can't be opened"],
      [`view-source:${lab.origin}/`, "view-source: pages can't be opened"],
      ["javascript:alert(1)", "javascript: pages can't be opened"],
    ] as const) {
      const error = await refusal(computer.goto(url));
      expect(error.code, url).toBe("forbidden:browser");
      expect(error.message, url).toContain(words);
    }
    expect(computer.currentUrl()).toBe("about:blank");
  });
});
