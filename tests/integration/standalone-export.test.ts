import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * Issue #29 item 5: what a person downloads runs outside Argus. A real server, real kernels and the
 * scripted count-coins run keep count_coins v1; the function's export and the session's notebook are
 * downloaded over HTTP, put in an empty directory beside the photo, and run by Debian's python3 and
 * by plain Jupyter (nbconvert --execute) with a clean environment: no PYTHONPATH, no Argus anywhere.
 */
const run = promisify(execFile);

let world: AgentWorld;
const scratch = tempDir("argus-standalone-export-");
let a: { id: string; token: string };
let coins: Buffer;

/** What a person's shell has: no PYTHONPATH, no ARGUS_*, a home of its own. */
const cleanEnv = (home: string) => ({ PATH: "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8" }) as unknown as NodeJS.ProcessEnv;

/** A new empty directory holding the coins photo, as a person's download folder would. */
function emptyDirWithPhoto(name: string): string {
  const dir = path.join(scratch.dir, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "coins.png"), coins);
  return dir;
}

beforeAll(async () => {
  coins = await coinsPng();
  world = await startAgentWorld(scenarioPath("count-coins.json"));
  a = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  const upload = await uploadFile(world, a, coins, "coins.png");
  const watch = await watchSession(world.server.url, a);
  try {
    const posted = await world.call("POST", `/api/sessions/${a.id}/messages`, { token: a.token, body: { role: "user", content: "How many coins are on the table?", media: [upload.id] } });
    expect((await watch.until(["finished", "error", "stopped"], 120_000, posted.json.runId as string)).agentState).toBe("finished");
  } finally {
    watch.socket.disconnect();
  }
}, 240_000);
afterAll(async () => {
  await world?.close();
  scratch.cleanup();
});

describe("GET /api/sessions/:id/functions/:name/versions/:v/export", () => {
  it("downloads a zip that runs as `python3 count_coins.py IMAGE…` with Debian's python3 alone", async () => {
    const res = await fetch(`${world.server.url}/api/sessions/${a.id}/functions/count_coins/versions/1/export`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/filename="count_coins\.zip"/);
    const dir = emptyDirWithPhoto("script");
    writeFileSync(path.join(dir, "download.zip"), Buffer.from(await res.arrayBuffer()));
    await run("/usr/bin/python3", ["-I", "-m", "zipfile", "-e", "download.zip", "."], { cwd: dir, env: cleanEnv(dir) });
    expect(existsSync(path.join(dir, "count_coins.py"))).toBe(true);

    // -I: no PYTHONPATH, no user site, not even the script's directory on the path; Debian's dist-packages stay.
    const one = await run("/usr/bin/python3", ["-I", "count_coins.py", "coins.png"], { cwd: dir, env: cleanEnv(dir) });
    expect(JSON.parse(one.stdout)).toBe(24);

    // Several images: one JSON object, each image's result under its path.
    writeFileSync(path.join(dir, "again.png"), coins);
    const two = await run("/usr/bin/python3", ["-I", "count_coins.py", "coins.png", "again.png"], { cwd: dir, env: cleanEnv(dir) });
    expect(JSON.parse(two.stdout)).toEqual({ "coins.png": 24, "again.png": 24 });

    // No image: a usage line on stderr, exit status 2, nothing on stdout.
    const bare = await run("/usr/bin/python3", ["-I", "count_coins.py"], { cwd: dir, env: cleanEnv(dir) }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(bare).toMatchObject({ code: 2, stdout: "" });
    expect((bare as { stderr: string }).stderr).toMatch(/usage: .*count_coins\.py IMAGE/);
  }, 120_000);

  it("the older route still answers the latest version, and unknown versions are 404", async () => {
    const latest = await fetch(`${world.server.url}/api/sessions/${a.id}/functions/count_coins/export`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(latest.status).toBe(200);
    const dir = emptyDirWithPhoto("latest");
    writeFileSync(path.join(dir, "download.zip"), Buffer.from(await latest.arrayBuffer()));
    await run("/usr/bin/python3", ["-I", "-m", "zipfile", "-e", "download.zip", "."], { cwd: dir, env: cleanEnv(dir) });
    expect(readdirSync(dir)).toContain("count_coins.py");
    expect((await fetch(`${world.server.url}/api/sessions/${a.id}/functions/count_coins/versions/7/export`, { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(404);
  });
});

describe("GET /api/sessions/:id/notebook", () => {
  it("runs top to bottom in plain Jupyter with no Argus installed", async () => {
    const res = await fetch(`${world.server.url}/api/sessions/${a.id}/notebook`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(200);
    const dir = emptyDirWithPhoto("notebook");
    writeFileSync(path.join(dir, "session.ipynb"), Buffer.from(await res.arrayBuffer()));
    const env = { ...cleanEnv(dir), JUPYTER_CONFIG_DIR: path.join(dir, ".jupyter"), JUPYTER_DATA_DIR: path.join(dir, ".jupyter-data"), JUPYTER_RUNTIME_DIR: path.join(dir, ".jupyter-run") };
    // Plain Jupyter, as Debian packages it: the python3 kernel, no Argus on its path.
    await expect(run("/usr/bin/python3", ["-c", "import argus"], { cwd: dir, env })).rejects.toThrow(/No module named 'argus'/);
    const executed = await run("/usr/bin/python3", ["-m", "nbconvert", "--to", "notebook", "--execute", "--output", "executed.ipynb", "session.ipynb"], { cwd: dir, env }).catch(
      (e: { stderr: string }) => {
        throw new Error(`nbconvert failed: ${e.stderr.slice(-3000)}`);
      },
    );
    expect(executed.stderr).toMatch(/Writing .* bytes to executed\.ipynb/);
    const cells = (JSON.parse(readFileSync(path.join(dir, "executed.ipynb"), "utf8")) as { cells: { cell_type: string; outputs?: { output_type: string; text?: string | string[] }[] }[] }).cells;
    const printed = cells.flatMap((c) => c.outputs ?? []).map((o) => (Array.isArray(o.text) ? o.text.join("") : (o.text ?? ""))).join("");
    expect(printed).toMatch(/^24 coins$/m);
  }, 180_000);
});
