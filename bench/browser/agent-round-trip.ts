/**
 * One browsing action's round trip through the whole of Argus: from the scripted model's
 * answer (a move) to the next request that carries the screenshot it led to, through the event
 * log, the safety policy's look at the page, the action, the settle, the screenshot stored as a
 * session file and downscaled for the model. Timed by the scripted model's own request log.
 * Printed beside bare Playwright (mouse move + screenshot) measured in the same run.
 */
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "@/lib/engines/computer/chromium";
import { browserTurn, startBrowse, startBrowseWorld, turn } from "@/tests/helpers/browse-run";
import { CHROMIUM } from "@/tests/helpers/computer";
import { fmt, percentile, table } from "../lib/stats";

const MOVES = 30;
const WARMUP = 3;

const row = (name: string, xs: number[]) => [name, xs.length, fmt(percentile(xs, 50)), fmt(percentile(xs, 95)), fmt(xs.reduce((a, b) => a + b, 0) / xs.length)];

async function bareRoundTrips(url: string, rounds: number): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
    await page.goto(url);
    const times: number[] = [];
    for (let i = 0; i < rounds + WARMUP; i += 1) {
      const start = performance.now();
      await page.mouse.move(100 + (i % 20) * 20, 500);
      await page.screenshot({ type: "png" });
      if (i >= WARMUP) times.push(performance.now() - start);
    }
    return times;
  } finally {
    await browser.close();
  }
}

export async function agentRoundTrip(): Promise<void> {
  // Argus at its defaults (device scale 1, the model shown 1024 px), without Jupyter: only browsing is timed.
  const world = await startBrowseWorld({ ARGUS_JUPYTER: "off", ARGUS_BROWSER_MAX_STEPS: String(MOVES + 5), ARGUS_BROWSER_DEVICE_SCALE: "1", ARGUS_BROWSER_SCREEN_EDGE: "1024" });
  try {
    const url = `${world.lab.origin}/agent-scroll.html`;
    const moves = Array.from({ length: MOVES }, (_, i) => browserTurn("computer", { action: "move", x: 100 + (i % 20) * 20, y: 500 + (i % 2) * 10 }));
    const before = await bareRoundTrips(url, MOVES);
    const { watch, runId } = await startBrowse(
      world,
      [turn("conversation", "reply", { response: "Looking.", action: "browse", browse_task: "Move around.", url }), ...moves, browserTurn("done", { answer: "Done." }), turn("conversation", "reply", { response: "Done." })],
      `Move around on ${url}`,
    );
    const end = await watch.until(["finished", "error", "stopped"], 300_000, runId);
    if (end.agentState !== "finished") throw new Error(`the benchmark run ended ${end.agentState}`);
    watch.socket.disconnect();
    const after = await bareRoundTrips(url, MOVES);
    const at = world.model.requests.filter((r) => r.model === "browser").map((r) => Date.parse(r.at));
    // Request i+1 arrives when the move answered to request i has been carried out and shown.
    const argus = at.slice(1).map((t, i) => t - at[i]!).slice(WARMUP);
    console.log(`\nagent round trip: ${argus.length} moves after ${WARMUP} warm-up moves, one run through HTTP, the event log, Chromium and the scripted model\n`);
    console.log(
      table([
        ["measure (ms)", "n", "p50", "p95", "mean"],
        row("bare Playwright: mouse.move + page.screenshot()", [...before, ...after]),
        row("Argus: move answered → next screenshot in the model's request", argus),
      ]),
    );
    console.log(`\nThe agent's round trip p50 is ${fmt(percentile(argus, 50) / percentile([...before, ...after], 50))}× a bare Playwright action + screenshot.`);
  } finally {
    await world.close();
  }
}
