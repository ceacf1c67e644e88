import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ToolCatalogueSchema, type ToolCatalogueEntry } from "@/lib/foundation/protocol/tool-catalogue";
import { loadToolCatalogue } from "./tool-catalogue";

/**
 * The tool catalogue, asked of Python only when the kernel package changed. Asking imports the
 * whole package with OpenCV and scikit-image (seconds on a busy machine) at every server start;
 * the answer depends only on the interpreter and the package's source, so it is kept in the data
 * directory under a hash of both. The kernels never see the data directory.
 */
const CacheSchema = z.object({ key: z.string(), catalogue: ToolCatalogueSchema });

/** Hash of the interpreter's path and every .py file of the package (paths and contents). */
export async function packageKey(python: string, packageDir: string): Promise<string> {
  const hash = createHash("sha256").update(python).update("\0");
  const root = path.join(packageDir, "argus");
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".py")).sort();
  for (const file of files) hash.update(file).update("\0").update(await readFile(path.join(root, file))).update("\0");
  return hash.digest("hex");
}

/** The file's JSON, or null when it is missing or not JSON (then the catalogue is asked for again). */
async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as unknown;
  } catch {
    return null;
  }
}

export async function cachedToolCatalogue(python: string, packageDir: string, cacheFile: string): Promise<ToolCatalogueEntry[]> {
  const key = await packageKey(python, packageDir);
  const cached = CacheSchema.safeParse(await readJson(cacheFile));
  if (cached.success && cached.data.key === key) return cached.data.catalogue;
  const catalogue = await loadToolCatalogue(python, packageDir);
  await mkdir(path.dirname(cacheFile), { recursive: true });
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ key, catalogue }));
  await rename(tmp, cacheFile);
  return catalogue;
}
