import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { ZipFile } from "@/lib/engines/files/zip-writer";

/**
 * The kernel's own `argus` package (python/argus) as zip entries under `argus/`: what a download
 * carries so its code runs outside Argus with the same helpers (load_image, view_image, the tools)
 * it ran with. The package's source only: no caches, no tests (they live outside it).
 */
export async function argusPackageFiles(pythonDir: string): Promise<ZipFile[]> {
  const root = path.join(pythonDir, "argus");
  const sources = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".py") && !f.split(path.sep).includes("__pycache__")).sort();
  return Promise.all(sources.map(async (file) => ({ path: `argus/${file.split(path.sep).join("/")}`, bytes: await readFile(path.join(root, file)) })));
}
