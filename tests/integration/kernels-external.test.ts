import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { ManagedJupyterServer } from "@/lib/engines/kernels/jupyter-server";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/features/sessions/service";
import { startExternalJupyter } from "@/tests/helpers/external-jupyter";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-external-");
let someoneElses: ManagedJupyterServer;
let core: ArgusCore;

/**
 * jupyter-servers started from this test process (its descendants). Not every one on the machine:
 * other test files run at the same time (vitest runs files in parallel), and each starts and
 * stops its own.
 */
const jupyterProcesses = () => {
  let pids: number[];
  try {
    pids = execFileSync("pgrep", ["-f", "--", "-m jupyter_server"], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return 0;
  }
  return pids.filter((pid) => descendsFromThisProcess(pid)).length;
};

function descendsFromThisProcess(pid: number): boolean {
  for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
    if (at === process.pid) return true;
    try {
      // The parent is the 2nd field after the command name, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${at}/stat`, "utf8");
      at = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return false; // it ended meanwhile
    }
  }
  return false;
}

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
