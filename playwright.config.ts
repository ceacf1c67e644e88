import { defineConfig } from "@playwright/test";

/** Ports of the three servers the browser tests run against (see webServer below). */
export const E2E = {
  scriptedModel: Number(process.env.ARGUS_E2E_MODEL_PORT ?? 4311),
  argus: Number(process.env.ARGUS_E2E_PORT ?? 3217),
  argusNoModel: Number(process.env.ARGUS_E2E_NO_MODEL_PORT ?? 3218),
};
const dataDir = `test-data/e2e-${process.pid}`;
const ROLE_MODELS = {
  ARGUS_MODEL_CONVERSATION: "conversation",
  ARGUS_MODEL_PLANNER: "planner",
  ARGUS_MODEL_CODER: "coder",
  ARGUS_MODEL_VQA: "vqa",
  ARGUS_MODEL_JUDGE: "judge",
};
const argusEnv = {
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  HOST: "127.0.0.1",
  ARGUS_KERNEL_POOL: "1",
  // Preloading the vision stack costs ~2.2 CPU-s per kernel start (every pooled spare too); a
  // spec's cells import what they use, as the vitest servers' do (tests/helpers/argus-server.ts).
  ARGUS_KERNEL_PRELOAD: "none",
  // Every spec's browser comes from 127.0.0.1 and together they create many sessions.
  ARGUS_SESSION_RATE_PER_MINUTE: "100000",
};

/** The specs of the second Playwright process in `npm test` (the longest ones, split by their measured seconds). */
const SECOND_HALF = /\/(functions|resilience|interaction|batch|ui-newcomer|page-security|coins)\.spec\.ts$/;

/**
 * Browser tests run in Debian's Chromium (never a downloaded browser) against
 * the production build served by server.ts, exactly as `npm start` serves it,
 * with the scripted model as the only stand-in. Each spec loads its scenario
 * into the running scripted model (POST /__scenario).
 */
export default defineConfig({
  testDir: "e2e",
  // Per process: `npm test` runs two at once (see projects), and each empties its own at start.
  outputDir: process.env.ARGUS_E2E_ARTIFACTS ?? "test-results/playwright-artifacts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 30_000 },
  reporter: [["list"], ["json", { outputFile: process.env.ARGUS_E2E_JSON ?? "test-results/playwright.json" }]],
  // Two halves of about the same length: `npm test` (scripts/test.sh) runs `--project=chromium
  // --project=dialects` and `--project=chromium-b` as two Playwright processes at once, each with
  // its own servers and ports; a plain `playwright test` runs all three one after another.
  projects: [
    { name: "chromium", testIgnore: [/dialects\.spec\.ts/, SECOND_HALF] },
    { name: "chromium-b", testMatch: SECOND_HALF },
    // Last, because auto moves a model to the text protocol for the server's life (README, Using a real model).
    { name: "dialects", testMatch: /dialects\.spec\.ts/, dependencies: ["chromium"] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${E2E.argus}`,
    // The app honours prefers-reduced-motion (motion-safe: spinners, pulses). Without it, a page
    // waiting on a run repaints its spinner at 60 fps through Chromium's software GPU process,
    // which as root raises itself to nice -8: measured at 15-35 % of a core per browser, ahead of
    // the nice-10 kernels the test is waiting for.
    reducedMotion: "reduce",
    // A screenshot at the end of every test costs Chromium a capture and a PNG encode each time
    // (about a fifth of the browser process's CPU, measured on ten tests). npm test sets
    // ARGUS_E2E_SCREENSHOT=only-on-failure: a failure still has its picture, a pass none.
    screenshot: process.env.ARGUS_E2E_SCREENSHOT === "only-on-failure" ? "only-on-failure" : "on",
    // Recording a trace (screencast frames and DOM snapshots at every action) costs Chromium about
    // a fifth more CPU in every test, kept or not. npm test, where nobody opens a trace (CI shows
    // text), sets ARGUS_E2E_TRACE=off; a spec run alone keeps the trace of a failure.
    trace: process.env.ARGUS_E2E_TRACE === "off" ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: `node --import tsx scripts/fake-llm.ts e2e/scenarios/hello.json --port ${E2E.scriptedModel}`,
      url: `http://127.0.0.1:${E2E.scriptedModel}/__state`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `rm -rf ${dataDir} && node --import tsx server.ts`,
      url: `http://127.0.0.1:${E2E.argus}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      // SIGTERM lets the server stop its jupyter-server and kernels cleanly.
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      env: {
        ...argusEnv,
        PORT: String(E2E.argus),
        ARGUS_DATA_DIR: dataDir,
        OPENAI_BASE_URL: `http://127.0.0.1:${E2E.scriptedModel}/v1`,
        OPENAI_API_KEY: "scripted",
        ARGUS_MODEL_MAX_RETRIES: "0",
        ...ROLE_MODELS,
      },
    },
    {
      command: `rm -rf ${dataDir}-nomodel && node --import tsx server.ts`,
      url: `http://127.0.0.1:${E2E.argusNoModel}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      env: { ...argusEnv, PORT: String(E2E.argusNoModel), ARGUS_DATA_DIR: `${dataDir}-nomodel`, ARGUS_JUPYTER: "off" },
    },
  ],
});
