/**
 * The shared Jupyter host of the deployed layout (deploy/compose.yaml's `jupyter` service, and any
 * Jupyter Server an operator runs for several Argus instances): its settings, checked once, and
 * the jupyter-server command line they give. Pure; scripts/jupyter-host.ts writes the argus-python
 * kernelspec and starts the server with it. The tests start their shared Jupyter through the same
 * script, with the compose file's own settings.
 */
import path from "node:path";
import { z } from "zod";
import { EnvSchema } from "@/lib/foundation/config-env";
import { hardenedServerArgs, IPC_TRANSPORT_ARG } from "./jupyter-server-args";
import type { KernelspecOptions } from "./kernelspec";

const port = z.coerce.number().int().min(1).max(65535);

export const JupyterHostEnvSchema = EnvSchema.pick({
  ARGUS_KERNEL_MEMORY_MB: true,
  ARGUS_KERNEL_CPU_SECONDS: true,
  ARGUS_KERNEL_MAX_PROCESSES: true,
  ARGUS_KERNEL_NICE: true,
  ARGUS_KERNEL_PRELOAD: true,
}).extend({
  // What Argus instances send as JUPYTER_TOKEN. Read from the environment, never put on a command line.
  JUPYTER_TOKEN: z.string().min(16, { message: "set a token of at least 16 characters (e.g. `openssl rand -hex 24`), the same as the instances' JUPYTER_TOKEN" }),
  ARGUS_JUPYTER_IP: z.string().min(1).default("0.0.0.0"),
  ARGUS_JUPYTER_PORT: port.default(8888),
  // Where kernels start and session workspaces live (ARGUS_WORKSPACE_TRANSPORT=kernel).
  ARGUS_JUPYTER_ROOT: z.string().refine((v) => path.isAbsolute(v), { message: "use an absolute path" }).default("/work"),
  // The kernelspec, jupyter's config and its runtime files (sockets) go here.
  ARGUS_JUPYTER_STATE: z.string().refine((v) => path.isAbsolute(v), { message: "use an absolute path" }).optional(),
  // Bubblewrap by default, and fail closed: a kernel host shared by many people must sandbox.
  ARGUS_SANDBOX: z.enum(["bubblewrap", "none"]).default("bubblewrap"),
  ARGUS_PYTHON: z.string().refine((v) => path.isAbsolute(v), { message: "use an absolute path" }).default("/usr/bin/python3"),
  // Kernels nobody is connected to (their instance died or was replaced) and idle this long are
  // shut down by the server itself. Kernels an instance holds keep a connection open and are left
  // to Argus's own idle reaper (ARGUS_KERNEL_IDLE_MINUTES), so this never takes a live notebook.
  ARGUS_JUPYTER_CULL_IDLE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(30),
});
export type JupyterHostEnv = z.infer<typeof JupyterHostEnvSchema>;

export function parseJupyterHostEnv(env: Record<string, string | undefined>, home: string): JupyterHostEnv & { ARGUS_JUPYTER_STATE: string } {
  const parsed = JupyterHostEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${issue?.path.join(".") ?? "environment"}: ${issue?.message ?? "invalid value"}`);
  }
  return { ...parsed.data, ARGUS_JUPYTER_STATE: parsed.data.ARGUS_JUPYTER_STATE ?? path.join(home, ".argus-jupyter") };
}

/** The argus-python kernelspec this host writes: the sandbox launcher, Argus's package, the limits. */
export function hostKernelspec(env: JupyterHostEnv & { ARGUS_JUPYTER_STATE: string }, pythonDir: string): KernelspecOptions {
  return {
    jupyterDataDir: path.join(env.ARGUS_JUPYTER_STATE, "data"),
    python: env.ARGUS_PYTHON,
    launcherPath: path.join(pythonDir, "argus_sandbox", "launch_kernel.py"),
    packageDir: pythonDir,
    memoryMb: env.ARGUS_KERNEL_MEMORY_MB,
    cpuSeconds: env.ARGUS_KERNEL_CPU_SECONDS,
    maxProcesses: env.ARGUS_KERNEL_MAX_PROCESSES,
    niceness: env.ARGUS_KERNEL_NICE,
    sandbox: env.ARGUS_SANDBOX,
    preload: env.ARGUS_KERNEL_PRELOAD,
  };
}

/** jupyter-server's arguments (after the interpreter) for this host. */
export function hostServerArgs(env: JupyterHostEnv): string[] {
  const cullSeconds = env.ARGUS_JUPYTER_CULL_IDLE_MINUTES * 60;
  return [
    "-m",
    "jupyter_server",
    "--no-browser",
    `--ServerApp.ip=${env.ARGUS_JUPYTER_IP}`,
    `--ServerApp.port=${env.ARGUS_JUPYTER_PORT}`,
    "--ServerApp.port_retries=0",
    `--ServerApp.root_dir=${env.ARGUS_JUPYTER_ROOT}`,
    ...hardenedServerArgs(),
    IPC_TRANSPORT_ARG,
    // Culling: each Argus instance reclaims the kernels it left behind when it starts again
    // (lib/engines/kernels/kernel-ledger.ts); an instance that never comes back leaves its kernels with no
    // connection, and the server shuts them down once they have been idle this long.
    `--MappingKernelManager.cull_idle_timeout=${cullSeconds}`,
    `--MappingKernelManager.cull_interval=${Math.min(60, cullSeconds)}`,
    "--MappingKernelManager.cull_connected=False",
    "--MappingKernelManager.cull_busy=False",
  ];
}
