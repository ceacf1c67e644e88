/**
 * The scripted model in its own process (as `npm run fake-llm` runs it), so its chunk timing
 * is not disturbed by the benchmark's own work (Playwright, polling).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

export interface ModelProcess {
  /** Base URL ending in /v1. */
  url: string;
  /** The request log (GET /__requests). */
  requests<T>(): Promise<T[]>;
  stop(): Promise<void>;
}

export async function startModelProcess(scenario: unknown, dir: string): Promise<ModelProcess> {
  const file = path.join(dir, "scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  const proc = spawn(process.execPath, ["--import", "tsx", "scripts/fake-llm.ts", file, "--port", "0"], { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  proc.stderr!.on("data", (c: Buffer) => (log += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on("data", (c: Buffer) => {
      log += c.toString();
      const m = /listening on (http:\/\/\S+\/v1)/.exec(log);
      if (m) resolve(m[1]!);
    });
    proc.once("exit", (code) => reject(new Error(`the scripted model exited with ${code}:\n${log}`)));
  });
  const base = url.replace(/\/v1$/, "");
  return {
    url,
    requests: async <T>() => (await (await fetch(`${base}/__requests`)).json()) as T[],
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill("SIGTERM");
      }),
  };
}
