/**
 * The vision-tool catalogue, asked of Python once per run instead of at every test server's start.
 *
 * An Argus with Jupyter asks the kernel package for its tool catalogue when it starts (it imports
 * the package with OpenCV and scikit-image: about a CPU-second), and keeps the answer in its data
 * directory under a hash of the interpreter and the package's sources (lib/engines/kernels/tool-catalogue-cache.ts).
 * Every test server has a fresh data directory, so each asked again. A test data directory is now
 * seeded with the last answer a test server of this checkout wrote; the server checks its key as
 * at any restart, and asks Python again when the package changed. How the catalogue is read and
 * cached has its own tests (tests/integration/tool-catalogue.test.ts), which seed nothing.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** In test-results/ (git-ignored, kept between runs): the newest catalogue any test server wrote. */
const SHARED = path.join(ROOT, "test-results", ".cache", "tool-catalogue.json");

const ownFile = (dataDir: string) => path.join(dataDir, "cache", "tool-catalogue.json");

/** Whether these settings start a server with Jupyter (only then is a catalogue read). */
export function usesJupyter(env: Record<string, string | undefined>): boolean {
  return Boolean(env.JUPYTER_URL) || env.ARGUS_JUPYTER !== "off";
}

/** Before a server starts on `dataDir`: the shared catalogue as its cache, if there is one and it has none. */
export function seedToolCatalogue(dataDir: string): void {
  if (!existsSync(SHARED) || existsSync(ownFile(dataDir))) return;
  try {
    mkdirSync(path.dirname(ownFile(dataDir)), { recursive: true });
    copyFileSync(SHARED, ownFile(dataDir));
  } catch {
    // Another run replacing it, or no room: the server asks Python, as without a seed.
  }
}

/** After a server started on `dataDir`: its catalogue becomes the shared one (written whole, then renamed). */
export function keepToolCatalogue(dataDir: string): void {
  if (!existsSync(ownFile(dataDir))) return;
  try {
    mkdirSync(path.dirname(SHARED), { recursive: true });
    const tmp = `${SHARED}.${process.pid}.tmp`;
    copyFileSync(ownFile(dataDir), tmp);
    renameSync(tmp, SHARED);
  } catch {
    // Only a missed saving: the next server asks Python.
  }
}
