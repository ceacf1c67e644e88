/**
 * Browser benchmark (issue #12): one action's round trip through Argus's
 * Computer (click → the next screenshot's PNG in hand) on the lab shop,
 * printed beside bare Playwright on the same page in the same run:
 *  - bare `page.screenshot()`, and bare `mouse.click` + `page.screenshot()`,
 *    in a plain context of a plain Chromium (no routing, no proxy, no settle);
 *  - Argus's `screenshot()` alone, and `click()` + `screenshot()`.
 * The two are measured in alternating rounds so machine load hits both alike.
 *
 *   npm run bench:browser
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "@/lib/engines/computer/chromium";
import { browserManager, centreOf, CHROMIUM } from "@/tests/helpers/computer";
import { startLab } from "@/tests/helpers/browser-lab";
import { agentRoundTrip } from "./browser/agent-round-trip";
import { fmt, percentile, table } from "./lib/stats";

const ROUNDS = 40;
const WARMUP = 5;
const PRODUCTS = ["#red-mug img", "#green-lamp img", "#blue-chair img"];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const row = (name: string, xs: number[]) => [name, xs.length, fmt(percentile(xs, 50)), fmt(percentile(xs, 95)), fmt(xs.reduce((a, b) => a + b, 0) / xs.length)];

async function main() {
  console.log(`browser benchmark on ${execFileSync("nproc").toString().trim()} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${CHROMIUM}`);
  const lab = await startLab();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "argus-bench-browser-"));
  const manager = browserManager({ allow: lab.hostPort });
  // The bare baseline: the same Chromium and flags, minus Argus's proxy.
  const bare = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const computer = await manager.getComputer("bench", { downloadDir: scratch });
    await computer.goto(lab.origin);
    const targets = await Promise.all(PRODUCTS.map((p) => centreOf(computer, p)));

    const context = await bare.newContext({ viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await page.goto(lab.origin);

    const samples = { bareShot: [] as number[], bareClick: [] as number[], argusShot: [] as number[], argusClick: [] as number[] };
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
      const { x, y } = targets[round % targets.length]!;
      const bareShot = await timed(() => page.screenshot({ type: "png" }));
      const bareClick = await timed(async () => {
        await page.mouse.click(x, y);
        await page.screenshot({ type: "png" });
      });
      const argusShot = await timed(() => computer.screenshot());
      const argusClick = await timed(async () => {
        await computer.click(x, y);
        await computer.screenshot();
      });
      if (round < WARMUP) continue;
      samples.bareShot.push(bareShot);
      samples.bareClick.push(bareClick);
      samples.argusShot.push(argusShot);
      samples.argusClick.push(argusClick);
    }
    // The clicks did land: the page says which product was clicked last.
    const clicked = await computer.activePage!.locator("#clicked").innerText();
    console.log(`\n${ROUNDS} rounds after ${WARMUP} warm-up rounds; the last Argus click left "${clicked}"\n`);
    console.log(
      table([
        ["measure (ms)", "n", "p50", "p95", "mean"],
        row("bare Playwright: page.screenshot()", samples.bareShot),
        row("bare Playwright: mouse.click + page.screenshot()", samples.bareClick),
        row("Argus: computer.screenshot()", samples.argusShot),
        row("Argus: computer.click → computer.screenshot()", samples.argusClick),
      ]),
    );
    const ratio = percentile(samples.argusClick, 50) / percentile(samples.bareClick, 50);
    console.log(`\nArgus click round trip p50 is ${fmt(ratio)}× bare Playwright's (the difference is the settle: two animation frames and any navigation).`);
  } finally {
    await manager.closeAll();
    await bare.close();
    await lab.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main()
  .then(() => agentRoundTrip())
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
