import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ToolCatalogueSchema, type ToolCatalogueEntry } from "@/lib/foundation/protocol/tool-catalogue";

const run = promisify(execFile);

/**
 * Asks the kernel package for its tool catalogue (`python -m
 * argus.tools.catalogue`), so the prompts are rendered from the tools'
 * own docstrings: one source of truth, and a new tool needs no server change.
 */
export async function loadToolCatalogue(python: string, packageDir: string): Promise<ToolCatalogueEntry[]> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", PYTHONPATH: packageDir, PYTHONDONTWRITEBYTECODE: "1" };
  const { stdout } = await run(python, ["-m", "argus.tools.catalogue"], {
    cwd: packageDir,
    env: env as NodeJS.ProcessEnv,
    timeout: 60_000,
    maxBuffer: 4 * 1024 * 1024,
  });
  return ToolCatalogueSchema.parse(JSON.parse(stdout));
}
