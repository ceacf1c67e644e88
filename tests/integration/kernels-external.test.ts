import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { ManagedJupyterServer } from "@/lib/kernels/jupyter-server";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/sessions/service";
import { startExternalJupyter } from "@/tests/helpers/external-jupyter";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-external-");
let someoneElses: ManagedJupyterServer;
let core: ArgusCore;

const jupyterProcesses = () => {
  try {
    return execFileSync("pgrep", ["-f", "--", "-m jupyter_server"], { encoding: "utf8" }).split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
};

beforeAll(async () => {
  // A Jupyter Server that someone else runs, serving the sessions directory, with the Argus sandbox.
  ({ server: someoneElses } = await startExternalJupyter(scratch.dir, {
    rootDir: path.join(scratch.dir, "data", "sessions"),
    sandbox: "bubblewrap",
    extraArgs: ["--KernelManager.transport=ipc"],
  }));
});
afterAll(async () => {
  await core?.close();
  await someoneElses?.stop();
  scratch.cleanup();
});

describe("JUPYTER_URL and JUPYTER_TOKEN", () => {
  it("use an existing server and start none", async () => {
    const ep = someoneElses.endpoint()!;
    const before = jupyterProcesses();
    const config = loadConfig(
      { ARGUS_DATA_DIR: path.join(scratch.dir, "data"), JUPYTER_URL: ep.baseUrl, JUPYTER_TOKEN: ep.token, ARGUS_KERNEL_NAME: "argus-python", ARGUS_KERNEL_POOL: "1" },
      process.cwd(),
    );
    core = await createArgusCore(config);
    await core.start();
    expect(jupyterProcesses()).toBe(before);
    expect(await core.health()).toMatchObject({ ok: true, jupyter: "up", isolation: "external" });
    const s = await createSession(core, null);
    const r = await core.kernels!.execute(s.id, "print(6 * 7)");
    expect(r.stdout).toBe("42\n");
  });

  it("report jupyter down when the token is wrong", async () => {
    const ep = someoneElses.endpoint()!;
    const wrong = await createArgusCore(
      loadConfig({ ARGUS_DATA_DIR: path.join(scratch.dir, "data2"), JUPYTER_URL: ep.baseUrl, JUPYTER_TOKEN: "wrong" }, process.cwd()),
    );
    try {
      expect((await wrong.health()).jupyter).toBe("down");
    } finally {
      await wrong.close();
    }
  });
});
