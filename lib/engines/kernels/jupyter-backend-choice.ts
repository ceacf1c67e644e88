import path from "node:path";
import type { ArgusConfig } from "@/lib/foundation/config";
import type { IsolationKind, ServerHealth } from "@/lib/foundation/protocol/health";
import { detectIsolation } from "./isolation";
import { ExternalJupyter, ManagedJupyterServer, NoJupyter, type JupyterBackend } from "./jupyter-server";
import { jupyterLaunchDir } from "./jupyter-launch-dir";
import { IPC_TRANSPORT_ARG } from "./jupyter-server-args";
import { detectKernelLimits } from "./kernel-limits";
import { writeKernelspec } from "./kernelspec";

/** Which Jupyter Argus talks to, and what contains the kernels it runs (for /api/health and the start log). */
export interface JupyterChoice {
  jupyter: JupyterBackend;
  /**
   * A managed server is started at once (it takes seconds, and nothing it needs comes later);
   * whoever starts Argus awaits this before filling the pool. Null for the other backends.
   */
  starting: Promise<void> | null;
  isolation: { kind: IsolationKind; reason: string };
  limits: { kind: ServerHealth["limits"]; reason: string };
}

export type JupyterSettings = Pick<ArgusConfig, "jupyter" | "kernels" | "python" | "dataDir" | "sessionsDir"> & {
  scale: Pick<ArgusConfig["scale"], "fixedInstanceId">;
};

/**
 * ARGUS_JUPYTER picks the backend: an external server or gateway (which contains its own kernels),
 * none at all, or a jupyter-server this process manages, whose kernels run under the sandbox and
 * limits detected here. `pythonDir` is the repository's Python (kernel package and launcher).
 */
export async function chooseJupyterBackend(settings: JupyterSettings, pythonDir: string, log: (line: string) => void): Promise<JupyterChoice> {
  if (settings.jupyter.mode === "external") {
    return {
      jupyter: new ExternalJupyter({ baseUrl: settings.jupyter.url.replace(/\/$/, ""), token: settings.jupyter.token }),
      starting: null,
      isolation: { kind: "external", reason: "kernels run on the external Jupyter server or gateway, which contains them" },
      limits: { kind: "external", reason: "the external Jupyter server or gateway sets the kernels' limits" },
    };
  }
  if (settings.jupyter.mode === "off") {
    return {
      jupyter: new NoJupyter(),
      starting: null,
      isolation: { kind: "none", reason: "Jupyter is off" },
      limits: { kind: "none", reason: "Jupyter is off" },
    };
  }
  const { kernels, python } = settings;
  const [isolation, limits] = await Promise.all([
    kernels.sandbox === "none" ? { kind: "none" as const, reason: "ARGUS_SANDBOX=none" } : detectIsolation(),
    detectKernelLimits(python, pythonDir),
  ]);
  if (kernels.sandbox === "bubblewrap" && isolation.kind !== "bubblewrap") {
    throw new Error(`ARGUS_SANDBOX=bubblewrap, but bubblewrap cannot run here: ${isolation.reason}`);
  }
  const runtimeDir = path.join(settings.dataDir, "jupyter");
  writeKernelspec({
    jupyterDataDir: path.join(runtimeDir, "data"),
    python,
    launcherPath: path.join(pythonDir, "argus_sandbox", "launch_kernel.py"),
    packageDir: pythonDir,
    memoryMb: kernels.memoryMb,
    cpuSeconds: kernels.cpuSeconds,
    maxProcesses: kernels.maxProcesses,
    niceness: kernels.niceness,
    sandbox: isolation.kind,
    preload: kernels.preload,
  });
  const jupyter = new ManagedJupyterServer({
    python,
    rootDir: settings.sessionsDir,
    runtimeDir,
    launchDir: jupyterLaunchDir(runtimeDir, settings.scale.fixedInstanceId),
    log: (line) => log(`[jupyter] ${line}`),
    // Unix-socket ZeroMQ channels: the sandboxed kernel has no network at all.
    extraArgs: [IPC_TRANSPORT_ARG],
  });
  const starting = jupyter.start();
  starting.catch(() => undefined);
  return { jupyter, starting, isolation, limits };
}
