import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const MODEL_PORT = Number(process.env.ARGUS_E2E_MODEL_PORT ?? 4311);

/**
 * An Argus server of the spec's own, for a setting the shared e2e server cannot have (no kernel
 * pool, so a run's first cell always starts its kernel cold; a browser model and a lab allowed):
 * started like the shared one (server.ts through tsx, production build), on a free port, against
 * the same scripted model. `env` adds to or overrides the shared server's settings.
 */
export async function startOwnArgus(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "argus-e2e-own-"));
  const proc = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOST: "127.0.0.1",
      PORT: "0",
      ARGUS_DATA_DIR: dataDir,
      ARGUS_SESSION_RATE_PER_MINUTE: "100000",
      // As the shared server (playwright.config.ts): no vision preload in every kernel.
      ARGUS_KERNEL_PRELOAD: "none",
      OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`,
      OPENAI_API_KEY: "scripted",
      ARGUS_MODEL_MAX_RETRIES: "0",
      ARGUS_MODEL_CONVERSATION: "conversation",
      ARGUS_MODEL_PLANNER: "planner",
      ARGUS_MODEL_CODER: "coder",
      ARGUS_MODEL_VQA: "vqa",
      ARGUS_MODEL_JUDGE: "judge",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  proc.stdout.on("data", (c: Buffer) => (log += c.toString()));
  proc.stderr.on("data", (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout.on("data", () => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(log);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`the spec's own Argus server exited before listening:\n${log}`)));
  });
  return {
    url,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
