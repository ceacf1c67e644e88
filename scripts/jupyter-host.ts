/**
 * Runs the shared Jupyter host of the deployed layout: writes Argus's `argus-python` kernelspec
 * (the sandbox launcher, the argus helper package on the kernels' path, the limits) and starts
 * jupyter-server with the same hardening as Argus's own, plus ipc channels and culling of kernels
 * nobody is connected to. deploy/compose.yaml's `jupyter` service runs exactly this; so do the
 * shared-Jupyter tests (tests/helpers/jupyter-host.ts), with the compose file's settings.
 *   JUPYTER_TOKEN=… node --import tsx scripts/jupyter-host.ts
 *   node --import tsx scripts/jupyter-host.ts --kernelspec-only   # only write the kernelspec, for
 *     a Kernel or Enterprise Gateway you start yourself (its JUPYTER_DATA_DIR, or `jupyter kernelspec install`)
 * Settings: lib/engines/kernels/jupyter-host.ts (docs/kernels.md "Kernels on a shared Jupyter").
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hostKernelspec, hostServerArgs, parseJupyterHostEnv } from "@/lib/engines/kernels/jupyter-host";
import { writeKernelspec } from "@/lib/engines/kernels/kernelspec";
import { socketRuntimeDir } from "@/lib/engines/kernels/socket-runtime-dir";

const PYTHON_DIR = path.resolve(import.meta.dirname, "..", "python");

function main(): void {
  const kernelspecOnly = process.argv.includes("--kernelspec-only");
  let env;
  try {
    // Writing the kernelspec alone starts no server, so it needs no token.
    env = parseJupyterHostEnv(kernelspecOnly ? { JUPYTER_TOKEN: "not-used-by-kernelspec-only", ...process.env } : process.env, os.homedir());
  } catch (error) {
    console.error(`[jupyter-host] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  mkdirSync(env.ARGUS_JUPYTER_ROOT, { recursive: true });
  const spec = hostKernelspec(env, PYTHON_DIR);
  const name = writeKernelspec(spec);
  if (kernelspecOnly) {
    console.log(path.join(spec.jupyterDataDir, "kernels", name));
    return;
  }
  const runtime = socketRuntimeDir(path.join(env.ARGUS_JUPYTER_STATE, "runtime"));
  mkdirSync(runtime.dir, { recursive: true, mode: 0o700 });
  const args = hostServerArgs(env);
  if (process.getuid?.() === 0) {
    args.push("--allow-root");
    console.error("[jupyter-host] warning: running as root; run the host as an unprivileged user (compose.yaml does)");
  }
  console.error(`[jupyter-host] kernelspec ${name} (sandbox: ${env.ARGUS_SANDBOX}); culling kernels idle ${env.ARGUS_JUPYTER_CULL_IDLE_MINUTES} min with no connection`);
  // Only what jupyter-server needs: the kernels' own environment is built by the launcher.
  const child = spawn(env.ARGUS_PYTHON, args, {
    cwd: env.ARGUS_JUPYTER_ROOT,
    stdio: "inherit",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      LANG: process.env.LANG ?? "C.UTF-8",
      HOME: os.homedir(),
      JUPYTER_TOKEN: env.JUPYTER_TOKEN,
      JUPYTER_DATA_DIR: path.join(env.ARGUS_JUPYTER_STATE, "data"),
      JUPYTER_CONFIG_DIR: path.join(env.ARGUS_JUPYTER_STATE, "config"),
      JUPYTER_RUNTIME_DIR: runtime.dir,
      // argus_jupyter: the kernelspec allow-list and the websocket extension.
      PYTHONPATH: PYTHON_DIR,
      PYTHONUNBUFFERED: "1",
    } as unknown as NodeJS.ProcessEnv,
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    runtime.cleanup();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

main();
