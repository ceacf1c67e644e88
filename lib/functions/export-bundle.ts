import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { zipFiles, type ZipFile } from "@/lib/files/zip-writer";
import { exportScript, type ExportedFunction } from "./export-script";

/**
 * A kept function as a zip that runs outside Argus: `<name>/<name>.py` (exportScript) beside the
 * kernel's own `argus` package, so the code calls exactly the tools it called in the notebook —
 * classical ones on the machine it runs on, neural ones on the Argus server over HTTP.
 */
export async function exportBundle(fn: ExportedFunction, pythonDir: string): Promise<Buffer> {
  const root = path.join(pythonDir, "argus");
  // The package's source only: no caches, no tests (they live outside it).
  const sources = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".py") && !f.split(path.sep).includes("__pycache__")).sort();
  const files: ZipFile[] = [{ path: `${fn.name}/${fn.name}.py`, bytes: Buffer.from(exportScript(fn)) }];
  for (const file of sources) {
    files.push({ path: `${fn.name}/argus/${file.split(path.sep).join("/")}`, bytes: await readFile(path.join(root, file)) });
  }
  return zipFiles(files);
}
