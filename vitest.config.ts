import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)) },
  },
  test: {
    exclude: ["node_modules/**", "e2e/**", ".next/**", "data/**"],
    environment: "node",
    // Integration tests start real jupyter-server and kernels; give them room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Files run side by side. Unit files share nothing; each integration file starts its own
    // servers (port 0), data directories (mkdtemp), jupyter-servers and databases (one per data
    // directory on the shared test Postgres), so files never see each other. Integration files
    // mostly wait on servers and kernels; two at once keep both cores busy without starving any
    // file (three, on the shared 2-core machine at load 20-40, ran tests past their 60 s budgets).
    // vitest's default on 2 cores is 1 (cores - 1): every file one after another.
    // ARGUS_TEST_WORKERS=1 runs them one at a time again (to tell a race between files apart).
    maxWorkers: Number(process.env.ARGUS_TEST_WORKERS ?? 2),
    // ARGUS_TEST_DB=postgres: one test Postgres for the run (tests/helpers/test-engines.ts).
    globalSetup: ["tests/helpers/engines-global-setup.ts"],
    // ARGUS_TEST_CPU_LOG=file: each test file's CPU seconds (tests/helpers/cpu-probe.ts).
    setupFiles: ["tests/helpers/cpu-probe.ts"],
    projects: [
      {
        // Unit files (beside the code) run one after another in a forked process that stays:
        // a fresh process per file cost more than most of these files' tests (starting the
        // process and loading vitest, zod and lib/ again: 9.7 CPU-s for 33 files against 2.8
        // when they share the process). They share no mutable state: no file writes
        // process.env, mocks a module or leaves fake timers on (docs/testing.md says what a
        // unit file may not do). ARGUS_TEST_ISOLATE=1 gives each its own process again.
        extends: true,
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: ["node_modules/**", "e2e/**", ".next/**", "data/**", "tests/integration/**"],
          isolate: process.env.ARGUS_TEST_ISOLATE === "1",
        },
      },
      {
        // Integration files start servers, kernels and Chromium: each in a process of its own, so
        // one that leaves something behind cannot touch the next.
        extends: true,
        // ARGUS_TEST_EXCLUDE: comma-separated globs left out (npm test runs them in another stream).
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // A whole agent run with kernels takes 10-40 s alone and up to 57 s beside a benchmark on
          // two cores (agents-count-coins, kernels-cap, agents-tool-review): the budget is there to
          // end a hang, not to time the work (no test asserts a time), so it leaves room for load.
          testTimeout: 120_000,
          exclude: ["node_modules/**", ...(process.env.ARGUS_TEST_EXCLUDE?.split(",").filter(Boolean) ?? [])],
        },
      },
    ],
  },
});
