import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { openDatabase } from "@/lib/engines/db/database";
import { setSessionKernelId } from "@/lib/engines/db/session-kernels";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/features/sessions/service";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { loadCompose, TEST_SECRETS } from "@/tests/helpers/compose-file";
import { startDeployedJupyter, type DeployedJupyter } from "@/tests/helpers/jupyter-host";
import { startPostgres, type TestPostgres } from "@/tests/helpers/postgres";
import { startRedis, type RunningRedis } from "@/tests/helpers/redis-server";
import { eventually } from "@/tests/helpers/scale-out";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * The shared Jupyter host as deploy/compose.yaml sets it up (tests/helpers/jupyter-host.ts runs the
 * `jupyter` service's own command and settings), used as the instances' settings in compose.yaml
 * use it. The old layout started kernels from Debian's `python3` spec with a PYTHONPATH: every
 * planner cell failed with `NameError: name 'load_image' is not defined`, and the kernels ran
 * unsandboxed beside a Postgres and a Redis they could reach.
 */
const scratch = tempDir("argus-deployed-jupyter-");
let host: DeployedJupyter;
let postgres: TestPostgres;
let redis: RunningRedis;
let core: ArgusCore | undefined;

/** The instances' kernel settings, from compose.yaml's argus-1 service. */
const instanceEnv = () => {
  const env = loadCompose({ ...TEST_SECRETS, JUPYTER_TOKEN: host.token }).services["argus-1"]!.environment!;
  return { ARGUS_KERNEL_NAME: env.ARGUS_KERNEL_NAME!, ARGUS_WORKSPACE_TRANSPORT: env.ARGUS_WORKSPACE_TRANSPORT!, JUPYTER_URL: host.url, JUPYTER_TOKEN: env.JUPYTER_TOKEN! };
};

beforeAll(async () => {
  [host, postgres, redis] = await Promise.all([startDeployedJupyter(scratch.dir), startPostgres(), startRedis()]);
}, 240_000);
afterAll(async () => {
  await core?.close();
  await host?.server.stop();
  await postgres?.stop();
  await redis?.close();
  scratch.cleanup();
});

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });

async function serverKernels(): Promise<string[]> {
  const res = await fetch(`${host.url}/api/kernels`, { headers: { authorization: `token ${host.token}` } });
  return ((await res.json()) as { id: string }[]).map((k) => k.id);
}

describe("the deployed Jupyter host", () => {
  it("runs the planner's cells with Argus's helpers loaded, in a sandbox that cannot reach Postgres or Redis", async () => {
    core = await createArgusCore(loadConfig({ ARGUS_DATA_DIR: path.join(scratch.dir, "data"), ARGUS_KERNEL_POOL: "0", ...instanceEnv() }, process.cwd()));
    await core.start();
    const session = await createSession(core, null);
    const helpers = await core.kernels!.execute(session.id, "print(callable(load_image), callable(view_image))");
    expect(helpers.error, JSON.stringify(helpers.error)).toBeNull();
    expect(helpers.stdout).toBe("True True\n");

    // Both are up and reachable from this machine; from inside a kernel neither is.
    const postgresPort = new URL(postgres.url("postgres")).port;
    expect(await reachable(Number(postgresPort))).toBe(true);
    expect(await reachable(redis.port)).toBe(true);
    const probe = await core.kernels!.execute(
      session.id,
      [
        "import socket",
        `for port in (${postgresPort}, ${redis.port}):`,
        "    try:",
        "        socket.create_connection(('127.0.0.1', port), timeout=5).close()",
        "        print(port, 'reached')",
        "    except OSError as error:",
        "        print(port, 'refused', type(error).__name__)",
      ].join("\n"),
    );
    expect(probe.error, JSON.stringify(probe.error)).toBeNull();
    expect(probe.stdout).not.toContain("reached");
    expect(probe.stdout.trim().split("\n")).toHaveLength(2);
    await core.close();
    core = undefined;
  }, 150_000);

  it("starts no kernel but Argus's own: not Debian's python3 spec", async () => {
    const res = await fetch(`${host.url}/api/kernels`, {
      method: "POST",
      headers: { authorization: `token ${host.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "python3" }),
    });
    expect(res.ok).toBe(false);
    const specs = (await (await fetch(`${host.url}/api/kernelspecs`, { headers: { authorization: `token ${host.token}` } })).json()) as { kernelspecs: Record<string, unknown> };
    expect(Object.keys(specs.kernelspecs)).toEqual(["argus-python"]);
  });

  it("gets back the pooled kernels an instance left when it died, when that instance starts again; a session's notebook stays", async () => {
    const dataDir = path.join(scratch.dir, "instance");
    const env = { ...instanceEnv(), ARGUS_KERNEL_POOL: "2" };
    const before = new Set(await serverKernels());
    const first = await startArgus({ dataDir, instanceId: "argus-1", env });
    const call = api(first.url);
    const session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
    // Two pooled kernels on the server: the pool is full.
    await eventually(async () => (await serverKernels()).filter((id) => !before.has(id)).length >= 2, "the first instance's pool is full");
    const pooled = (await serverKernels()).filter((id) => !before.has(id));
    await first.kill("SIGKILL");
    expect((await serverKernels()).filter((id) => pooled.includes(id))).toEqual(pooled);

    // A session notebook of the dead instance: as if it had handed one of them to a chat.
    const db = await openDatabase(first.database);
    await setSessionKernelId(db, session.id, pooled[0]!);
    await db.close();

    const again = await startArgus({ dataDir, instanceId: "argus-1", env });
    try {
      await eventually(async () => !(await serverKernels()).includes(pooled[1]!), "the left-behind pooled kernel is shut down");
      expect(await serverKernels()).toContain(pooled[0]!);
      // The instance says so once its shutdowns have answered, which can be after the server's
      // list already lacks the kernel, and its output reaches us through a pipe: wait for the line.
      const reclaimed = /reclaimed what this instance left on the Jupyter server: 1 kernel\(s\) shut down, 1 session notebook\(s\) left running/;
      await eventually(async () => reclaimed.test(again.output()), "the instance reports what it reclaimed");
    } finally {
      await again.kill();
    }
  }, 150_000);
});
