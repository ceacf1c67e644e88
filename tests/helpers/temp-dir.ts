import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A scratch directory removed after the test file (pass to afterAll). */
export function tempDir(prefix = "argus-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
