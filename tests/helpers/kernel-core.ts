import { loadConfig } from "@/lib/foundation/config";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/features/sessions/service";
import { tempDir } from "./temp-dir";
import { engineEnv } from "./test-engines";
import { keepToolCatalogue, seedToolCatalogue } from "./tool-catalogue-seed";

export interface KernelCore {
  core: ArgusCore;
  dir: string;
  kernels: NonNullable<ArgusCore["kernels"]>;
  newSession: () => Promise<{ id: string; token: string }>;
  close: () => Promise<void>;
}

/**
 * A real Argus core with its own jupyter-server and sandboxed kernels in a
 * scratch directory, started and ready. `env` overrides settings (pool size,
 * timeouts, limits). Kernels skip the vision preload unless `env` asks for it:
 * it costs ~2 s of CPU per kernel, and suites start many.
 */
export async function startKernelCore(env: Record<string, string> = {}): Promise<KernelCore> {
  const scratch = tempDir("argus-kernels-");
  const config = loadConfig({ ARGUS_DATA_DIR: scratch.dir, ARGUS_KERNEL_POOL: "1", ARGUS_KERNEL_PRELOAD: "none", ...(await engineEnv(scratch.dir)), ...env }, process.cwd());
  seedToolCatalogue(scratch.dir);
  const core = await createArgusCore(config);
  keepToolCatalogue(scratch.dir);
  await core.start();
  const kernels = core.kernels!;
  return {
    core,
    dir: scratch.dir,
    kernels,
    newSession: () => createSession(core, null),
    close: async () => {
      await core.close();
      scratch.cleanup();
    },
  };
}

/** Waits until `check` holds, polling. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
