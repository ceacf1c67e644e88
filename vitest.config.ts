import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)) },
  },
  test: {
    include: ["**/*.test.ts"],
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
  },
});
