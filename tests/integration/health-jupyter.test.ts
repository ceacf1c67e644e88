import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir();
afterAll(scratch.cleanup);

/** PIDs of processes whose command line mentions the given text. */
function pidsMentioning(text: string): number[] {
  try {
    return execFileSync("pgrep", ["-f", "--", text], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe("the server with its own jupyter-server", () => {
  it("answers health with jupyter up, and leaves no process behind on SIGTERM", async () => {
    const server = await startArgus({ dataDir: scratch.dir, env: { ARGUS_JUPYTER: "auto" } });
    let stopped = false;
    try {
      const health = await api(server.url)("GET", "/api/health");
      expect(health.status).toBe(200);
      expect(health.json).toEqual({
        ok: true,
        db: "up",
        jupyter: "up",
        model: "not_configured",
        disk: "ok",
        isolation: "bubblewrap",
        limits: expect.stringMatching(/^(cgroup-v2|cgroup-v1|rlimit)$/),
        models: { conversation: "down", planner: "down", coder: "down", vqa: "down", judge: "down" },
        kernels: { pooled: expect.any(Number), starting: expect.any(Number), poolSize: 3, live: 0 },
        // The neural tools' engine, before any call: nothing loaded, an empty queue.
        vision: { state: "idle", models: expect.any(Array), rssBytes: expect.any(Number), queue: { running: 0, waiting: 0, limit: 16 } },
      });
      const jupyterPids = pidsMentioning(`--ServerApp.root_dir=${scratch.dir}`);
      expect(jupyterPids.length).toBeGreaterThan(0);

      expect(await server.kill("SIGTERM")).toBe(0);
      stopped = true;
      expect(pidsMentioning(`--ServerApp.root_dir=${scratch.dir}`)).toEqual([]);
    } finally {
      if (!stopped) await server.kill("SIGKILL");
    }
  });

  it("reports a model as configured when a key or endpoint and a model name are set", async () => {
    const server = await startArgus({
      dataDir: `${scratch.dir}/m`,
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", ARGUS_MODEL: "scripted" },
    });
    try {
      expect((await api(server.url)("GET", "/api/health")).json.model).toBe("configured");
    } finally {
      await server.kill();
    }
  });
});

describe("a server killed with SIGKILL", () => {
  it("takes its jupyter-server down with it", async () => {
    const dataDir = `${scratch.dir}/killed`;
    const server = await startArgus({ dataDir, env: { ARGUS_JUPYTER: "auto" } });
    expect((await api(server.url)("GET", "/api/health")).json.jupyter).toBe("up");
    expect(pidsMentioning(`--ServerApp.root_dir=${dataDir}`).length).toBeGreaterThan(0);
    await server.kill("SIGKILL");
    // jupyter-server gets SIGTERM from the kernel at once and shuts its kernels down first (each
    // may take its shutdown wait): how long that takes is the machine's business, bounded only by
    // the test's budget. An orphan that never goes fails the test by that budget.
    while (pidsMentioning(`--ServerApp.root_dir=${dataDir}`).length > 0) await new Promise((r) => setTimeout(r, 100));
    expect(pidsMentioning(`--ServerApp.root_dir=${dataDir}`)).toEqual([]);
  });
});
