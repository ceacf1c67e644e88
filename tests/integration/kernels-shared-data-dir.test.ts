import { readdirSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { KernelManager, ServerConnection, type Kernel } from "@jupyterlab/services";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { chooseJupyterBackend, type JupyterChoice } from "@/lib/engines/kernels/jupyter-backend-choice";

/**
 * Instances scaled out on one host share a data dir, each with a jupyter-server of its own. Each
 * launch empties the files of its previous launch; when those were one directory for all of them,
 * an instance's (re)start emptied the directory the others' servers and kernels had their files in,
 * and an emptying that met another server writing there failed the start (ENOTEMPTY: seen in the
 * bench's kill -9s, where the restarted instance came up with no kernels and every run it took
 * over ended in "the kernel registry is not started").
 */
// Short, so the ipc sockets' paths fit inside the data dir (socket-runtime-dir.ts).
const dir = mkdtempSync(path.join(os.tmpdir(), "argus-sd-"));
const started: JupyterChoice[] = [];
let manager: KernelManager | null = null;
afterAll(async () => {
  manager?.dispose();
  for (const choice of started) await choice.jupyter.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function startInstance(id: string): Promise<JupyterChoice> {
  const config = loadConfig({ ARGUS_DATA_DIR: dir, ARGUS_INSTANCE_ID: id, ARGUS_JUPYTER: "auto", ARGUS_KERNEL_PRELOAD: "none" }, process.cwd());
  const choice = await chooseJupyterBackend(config, path.join(process.cwd(), "python"), () => undefined);
  started.push(choice);
  await choice.starting;
  return choice;
}

/** Every jupyter-server's own record of itself (`jpserver-<pid>.json`) under the data dir's Jupyter directory. */
function serverFiles(): string[] {
  return readdirSync(path.join(dir, "jupyter"), { recursive: true, encoding: "utf8" }).filter((f) => /jpserver-\d+\.json$/.test(f));
}

async function run(kernel: Kernel.IKernelConnection, code: string): Promise<string> {
  let out = "";
  const future = kernel.requestExecute({ code });
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") out += (msg.content as { text: string }).text;
  };
  await future.done;
  return out;
}

describe("two instances with their own jupyter-servers on one data dir", () => {
  it("the second's start leaves the first's server files and kernel alone", { timeout: 120_000 }, async () => {
    const a = await startInstance("a");
    const endpoint = a.jupyter.endpoint()!;
    const settings = ServerConnection.makeSettings({ baseUrl: endpoint.baseUrl, wsUrl: endpoint.baseUrl.replace(/^http/, "ws"), token: endpoint.token, appendToken: true });
    manager = new KernelManager({ serverSettings: settings });
    const kernel = await manager.startNew({ name: "argus-python" });
    expect(await run(kernel, "x = 41\nprint('set')")).toContain("set");
    const before = serverFiles();
    expect(before).toHaveLength(1);

    const b = await startInstance("b");
    expect(await b.jupyter.status()).toBe("up");
    // A's files are still there, beside B's own.
    const after = serverFiles();
    for (const file of before) expect(after).toContain(file);
    expect(after).toHaveLength(2);
    // And A's kernel still answers on a new connection (new channels to its sockets).
    kernel.dispose();
    const again = manager.connectTo({ model: { id: kernel.id, name: kernel.name } });
    expect(await run(again, "print(x + 1)")).toContain("42");
    expect(await a.jupyter.status()).toBe("up");
  });
});
