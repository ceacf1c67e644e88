/**
 * Chat page performance in Debian's Chromium against the production build:
 *  - JavaScript shipped for the chat page (bytes on the wire, gzipped by the
 *    server), beside the minimal /status page measured in the same run;
 *  - rendering a 300-message transcript with 40 images: time to first render
 *    of the whole transcript and the longest main-thread task, beside a
 *    30-message transcript in the same run.
 *
 *   npm run bench:ui   (needs `npm run build` first; npm test does it)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import sharp from "sharp";
import { loadConfig } from "@/lib/foundation/config";
import { storeExecutionImages } from "@/lib/engines/files/generated";
import type { ArgusEventInput } from "@/lib/foundation/protocol/events";
import { createArgusCore } from "@/lib/server/argus-core";
import { newSecret } from "@/lib/foundation/common/secrets";
import { createSession } from "@/lib/features/sessions/service";
import { startArgus } from "@/tests/helpers/argus-server";
import { fmt, table } from "./lib/stats";

const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/** Fills a session with `n` messages, `images` of which are observations with a picture. */
async function seed(dataDir: string, n: number, images: number): Promise<{ id: string; browser: string }> {
  const core = await createArgusCore(loadConfig({ ARGUS_DATA_DIR: dataDir, ARGUS_JUPYTER: "off" }, process.cwd()));
  const browser = newSecret();
  const { id } = await createSession(core, browser);
  const runId = "bench-run";
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 140, b: 200 } } }).png().toBuffer();
  const every = Math.max(1, Math.floor(n / Math.max(images, 1)));
  let made = 0;
  for (let i = 0; i < n; i++) {
    const base = { runId, source: "agent" as const };
    let event: ArgusEventInput;
    if (i % every === 0 && made < images) {
      made++;
      const stored = await storeExecutionImages(core, id, { results: [{ data: { "image/png": png.toString("base64") }, isMain: false, viewed: false }], stdout: "", stderr: "", error: null }, `turn ${i}`);
      event = { ...base, source: "environment", agent: "planner", observation: "run_ipython", content: `----- stdout -----\nstep ${i}: ${"x".repeat(200)}`, extras: { code: "print(1)", image_urls: stored.map((s) => s.url) } } as ArgusEventInput;
    } else if (i % 3 === 0) {
      event = { ...base, agent: "planner", action: "run_ipython", args: { code: `import cv2\nimg = load_image('coins.png')\nprint(${i})`, thought: `Step ${i}: look closer.` } } as ArgusEventInput;
    } else if (i % 3 === 1) {
      event = { ...base, agent: "conversation", action: "message", args: { content: `Reply **${i}** with a [link](https://example.com) and \`code\`.` } } as ArgusEventInput;
    } else {
      event = { ...base, source: "user", agent: "user", action: "message", args: { content: `Question ${i}?` } } as ArgusEventInput;
    }
    await core.events.append(id, event);
  }
  await core.close();
  return { id, browser };
}

async function measureRender(browser: Browser, url: string, cookie: string, expected: number) {
  const context = await browser.newContext();
  await context.addCookies([{ name: "argus_browser", value: cookie, url }]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    (window as unknown as { __longest: number }).__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const w = window as unknown as { __longest: number };
        w.__longest = Math.max(w.__longest, e.duration);
      }
    }).observe({ type: "longtask", buffered: true });
  });
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelectorAll("[data-seq]").length >= n, expected, { timeout: 120_000 });
  const firstRender = Date.now() - t0;
  await page.waitForTimeout(500);
  const longest = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  await context.close();
  return { firstRender, longest };
}

async function jsBytes(browser: Browser, url: string): Promise<{ bytes: number; files: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on("requestfinished", (req) => {
    if (req.resourceType() === "script") sizes.push(req.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(url, { waitUntil: "networkidle" });
  const all = await Promise.all(sizes);
  await context.close();
  return { bytes: all.reduce((a, b) => a + b, 0), files: all.length };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "argus-ui-bench-"));
  const big = await seed(dir, 300, 40);
  const small = await seed(dir, 30, 4);
  const server = await startArgus({ dataDir: dir });
  const browser = await chromium.launch(LAUNCH);
  try {
    const chat = await jsBytes(browser, `${server.url}/`);
    const status = await jsBytes(browser, `${server.url}/status`);
    console.log("\nJavaScript for the page (bytes on the wire, gzipped by the server)");
    console.log(
      table([
        ["page", "script files", "KB gzipped"],
        ["/status (minimal page, baseline)", status.files, fmt(status.bytes / 1024, 1)],
        ["/ (the chat)", chat.files, fmt(chat.bytes / 1024, 1)],
      ]),
    );
    const r30 = await measureRender(browser, `${server.url}/?s=${small.id}`, small.browser, 30);
    const r300 = await measureRender(browser, `${server.url}/?s=${big.id}`, big.browser, 300);
    console.log("\nRendering a transcript (navigation to every message on screen)");
    console.log(
      table([
        ["transcript", "first render ms", "longest main-thread task ms"],
        ["30 messages, 4 images (baseline)", r30.firstRender, fmt(r30.longest, 0)],
        ["300 messages, 40 images", r300.firstRender, fmt(r300.longest, 0)],
      ]),
    );
  } finally {
    await browser.close();
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
