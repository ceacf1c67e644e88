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
    // ARGUS_TEST_DB=postgres: one test Postgres for the run (tests/helpers/test-engines.ts).
    globalSetup: ["tests/helpers/engines-global-setup.ts"],
  },
});
