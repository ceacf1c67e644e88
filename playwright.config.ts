import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.ARGUS_E2E_PORT ?? 3217);
const dataDir = `test-data/e2e-${process.pid}`;

/**
 * Browser tests run in Debian's Chromium (never a downloaded browser) against
 * the production build served by server.ts, exactly as `npm start` serves it.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/playwright-artifacts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "on",
    trace: "retain-on-failure",
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
  webServer: {
    command: `rm -rf ${dataDir} && node --import tsx server.ts`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its jupyter-server and kernels cleanly.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    timeout: 120_000,
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      ARGUS_DATA_DIR: dataDir,
    },
  },
});
