import { mkdirSync } from "node:fs";
import path from "node:path";
import { ManagedJupyterServer } from "@/lib/kernels/jupyter-server";
import { writeKernelspec } from "@/lib/kernels/kernelspec";
import { PYTHON_DIR } from "@/lib/server/argus-core";

/**
 * A jupyter-server that "someone else" runs for Argus (JUPYTER_URL): Debian's jupyter_server on a
 * free loopback port with its own token, serving `rootDir`, which is NOT Argus's data directory.
 * Its `argus-python` kernelspec puts the argus package on the kernels' path, as an operator does
 * for a shared Jupyter, and has no Argus sandbox (the operator's kernels are theirs to contain).
 */
export async function startExternalJupyter(dir: string): Promise<{ server: ManagedJupyterServer; rootDir: string; url: string; token: string }> {
  const runtimeDir = path.join(dir, "their-jupyter");
  const rootDir = path.join(dir, "their-root");
  mkdirSync(rootDir, { recursive: true });
  writeKernelspec({
    jupyterDataDir: path.join(runtimeDir, "data"),
    python: "/usr/bin/python3",
    launcherPath: path.join(PYTHON_DIR, "argus_sandbox", "launch_kernel.py"),
    packageDir: PYTHON_DIR,
    maxProcesses: 128,
    memoryMb: 4096,
    cpuSeconds: 600,
    sandbox: "none",
  });
  const server = new ManagedJupyterServer({ python: "/usr/bin/python3", rootDir, runtimeDir });
  await server.start();
  const ep = server.endpoint()!;
  return { server, rootDir, url: ep.baseUrl, token: ep.token };
}
