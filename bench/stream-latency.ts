/**
 * Live drafts: from the model writing its first words to a person seeing them. The scripted
 * model (its own process) streams each reply in paced chunks and logs when it wrote each one
 * (`chunkTimes`, epoch ms); a MutationObserver in Debian's Chromium notes when the first text of
 * that step's draft bubble is in the DOM (same epoch clock). Beside it, from the same run:
 *  - the scripted model's own send time (request received → that chunk written);
 *  - a bare Socket.io emit on loopback → text in a bare page's DOM (no model client, no Argus,
 *    no React): the floor under Argus's number.
 *
 *   npm run bench:stream   (needs a build: `bash scripts/ensure-build.sh`; npm test makes one)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { startArgus } from "@/tests/helpers/argus-server";
import { fmt, percentile, table } from "./lib/stats";
import { socketToDomLatencies } from "./stream/socket-baseline";
import { startModelProcess } from "./stream/scripted-model-process";

const STEPS = Number(process.env.BENCH_STEPS ?? 24);
/** One warm-up run first (page mount, first compile of the bubble), not counted. */
const WARMUP = 1;
/** A model writing ~16 characters every 20 ms, about what a fast hosted model streams. */
const STREAM = { chunkChars: 16, delayMs: 20 };
const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

const reply = (i: number) =>
  `Step ${i}: there are **24 coins** in the photo. I segmented them with a watershed on the Sobel elevation map, filled the holes, and kept every object larger than 100 pixels; the overlay shows each coin boxed exactly once.`;

/** `{"response":"` is 13 characters: with 16-character chunks the first one already shows text. */
const scenario = {
  name: "stream latency",
  turns: Array.from({ length: STEPS + WARMUP }, (_, i) => ({ model: "conversation", toolCalls: [{ name: "reply", args: { response: reply(i) } }], stream: STREAM })),
};

interface LoggedRequest {
  model: string | null;
  at: string;
  status: number;
  chunkTimes?: number[];
}

interface PageTimes {
  /** When the first draft frame with text for the run reached the page's WebSocket. */
  frame: Record<string, number>;
  /** When the run's draft bubble first showed text in the DOM. */
  dom: Record<string, number>;
}

/** Records, in the page, when each run's first draft arrives and when its text is in the DOM. */
async function watchDrafts(page: Page): Promise<void> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  await page.addInitScript(() => {
    const times: PageTimes = { frame: {}, dom: {} };
    (window as unknown as { __times: PageTimes }).__times = times;
    // Registered before Socket.io's own handler, so this is the frame's arrival, before any parsing.
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener("message", (e: MessageEvent) => {
          if (typeof e.data !== "string" || !e.data.startsWith('42["draft"')) return;
          const run = /"runId":"([^"]+)"/.exec(e.data)?.[1];
          if (run && times.frame[run] === undefined && /"response":"[^"]/.test(e.data)) times.frame[run] = performance.timeOrigin + performance.now();
        });
      }
    };
    new MutationObserver(() => {
      for (const el of document.querySelectorAll<HTMLElement>('[data-testid="live-draft"]')) {
        const run = el.dataset.run;
        if (!run || times.dom[run] !== undefined) continue;
        if ((el.querySelector('[data-testid="live-draft-response"]')?.textContent ?? "").trim() !== "") times.dom[run] = performance.timeOrigin + performance.now();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * When the chunk holding the reply's first visible characters was written. The log times only
 * chunks that carry model output, so for a tool call the first is the arguments' first piece.
 */
function firstTextChunkAt(request: LoggedRequest): number {
  const at = request.chunkTimes?.[0];
  if (at === undefined) throw new Error(`the scripted model logged no chunk times for a paced turn (got ${JSON.stringify(request.chunkTimes)})`);
  return at;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "argus-stream-bench-"));
  const model = await startModelProcess(scenario, dir);
  const server = await startArgus({
    dataDir: path.join(dir, "data"),
    env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ARGUS_MODEL_MAX_RETRIES: "0", ARGUS_JUPYTER: "off", ...ROLE_MODELS },
  });
  const browser = await chromium.launch(LAUNCH);
  try {
    const baseline = await socketToDomLatencies(browser, 40, 25);

    const context = await browser.newContext();
    const created = await context.request.post(`${server.url}/api/sessions`, { headers: { origin: server.url } });
    const session = (await created.json()) as { id: string; token: string };
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`[page] ${error.message}`));
    await watchDrafts(page);
    await page.goto(`${server.url}/?s=${session.id}`);
    await page.getByTestId("status-line").and(page.locator('[data-tone="idle"]')).waitFor();

    const runs: string[] = [];
    for (let i = 0; i < STEPS + WARMUP; i++) {
      const res = await fetch(`${server.url}/api/sessions/${session.id}/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
        body: JSON.stringify({ role: "user", content: `How many coins? (${i})` }),
      });
      if (res.status !== 202) throw new Error(`message ${i} refused: ${res.status} ${await res.text()}`);
      const { runId } = (await res.json()) as { runId: string };
      runs.push(runId);
      await page.waitForFunction((run) => (window as unknown as { __times: PageTimes }).__times.dom[run] !== undefined, runId, { timeout: 30_000 });
      // The run must end before the next message (one run per session at a time).
      await page.getByTestId("status-line").and(page.locator('[data-tone="ended"]')).waitFor();
      await page.getByTestId("message-conversation").filter({ hasText: `Step ${i}:` }).waitFor();
    }

    const seen = await page.evaluate(() => (window as unknown as { __times: PageTimes }).__times);
    const requests = (await model.requests<LoggedRequest>()).filter((r) => r.model === "conversation" && r.status === 200);
    if (requests.length !== runs.length) throw new Error(`expected ${runs.length} model requests, the log has ${requests.length}`);
    const visible: number[] = [];
    const toPage: number[] = [];
    const toDom: number[] = [];
    const send: number[] = [];
    for (let i = WARMUP; i < runs.length; i++) {
      const run = runs[i]!;
      const first = firstTextChunkAt(requests[i]!);
      visible.push(seen.dom[run]! - first);
      toPage.push(seen.frame[run]! - first);
      toDom.push(seen.dom[run]! - seen.frame[run]!);
      send.push(first - Date.parse(requests[i]!.at));
    }

    const row = (label: string, xs: number[]) => [label, xs.length, fmt(percentile(xs, 50), 1), fmt(percentile(xs, 95), 1), fmt(Math.max(...xs), 1)];
    console.log(`\nLive drafts: the model's first words → visible in Chromium (${STEPS} steps, chunks of ${STREAM.chunkChars} characters every ${STREAM.delayMs} ms)`);
    console.log(
      table([
        ["measure", "n", "p50 ms", "p95 ms", "max ms"],
        row("Argus: first text chunk written → draft text in the DOM", visible),
        row("  of which: chunk written → draft frame at the page", toPage),
        row("  of which: draft frame at the page → text in the DOM", toDom),
        row("baseline: scripted model, request received → that chunk written", send),
        row("baseline: bare Socket.io emit → text in a bare page's DOM", baseline),
      ]),
    );
    console.log(`\nload average (1 min) at the end: ${fmt(os.loadavg()[0]!, 1)} on ${os.cpus().length} cores`);
    console.log(`target: p50 ≤ 50 ms → ${percentile(visible, 50) <= 50 ? "met" : "NOT met"}`);
    await context.close();
  } finally {
    await browser.close();
    await server.kill();
    await model.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
