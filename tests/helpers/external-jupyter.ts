import { mkdirSync } from "node:fs";
import path from "node:path";
import { ManagedJupyterServer } from "@/lib/engines/kernels/jupyter-server";
import { writeKernelspec } from "@/lib/engines/kernels/kernelspec";
import { PYTHON_DIR } from "@/lib/server/argus-core";

export interface ExternalJupyterOptions {
  /** What it serves; by default `<dir>/their-root`, which is not Argus's data directory. */
  rootDir?: string;
  /** The kernelspec's sandbox: none by default (the operator's kernels are theirs to contain). */
  sandbox?: "none" | "bubblewrap";
  extraArgs?: string[];
}

/**
 * A jupyter-server that "someone else" runs for Argus (JUPYTER_URL): Debian's jupyter_server on a
 * free loopback port with its own token, serving `rootDir`. Its `argus-python` kernelspec puts the
 * argus package on the kernels' path, as an operator does for a shared Jupyter.
 */
export async function startExternalJupyter(
  dir: string,
  options: ExternalJupyterOptions = {},
): Promise<{ server: ManagedJupyterServer; rootDir: string; url: string; token: string }> {
  const runtimeDir = path.join(dir, "their-jupyter");
  const rootDir = options.rootDir ?? path.join(dir, "their-root");
  mkdirSync(rootDir, { recursive: true });
  writeKernelspec({
    jupyterDataDir: path.join(runtimeDir, "data"),
    python: "/usr/bin/python3",
    launcherPath: path.join(PYTHON_DIR, "argus_sandbox", "launch_kernel.py"),
    packageDir: PYTHON_DIR,
    maxProcesses: 128,
    memoryMb: 4096,
    cpuSeconds: 600,
    sandbox: options.sandbox ?? "none",
  });
  const server = new ManagedJupyterServer({ python: "/usr/bin/python3", rootDir, runtimeDir, ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}) });
  await server.start();
  const ep = server.endpoint()!;
  return { server, rootDir, url: ep.baseUrl, token: ep.token };
}
