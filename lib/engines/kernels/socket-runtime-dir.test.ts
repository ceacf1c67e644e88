import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { socketRuntimeDir, socketsFitIn, SOCKET_PATH_MAX } from "./socket-runtime-dir";

const scratch = mkdtempSync(path.join(os.tmpdir(), "argus-srd-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("socketRuntimeDir", () => {
  it("keeps the data directory's runtime dir when the longest socket name fits", () => {
    const preferred = "/srv/argus/data/jupyter/runtime";
    expect(socketsFitIn(preferred)).toBe(true);
    expect(socketRuntimeDir(preferred, scratch).dir).toBe(preferred);
  });

  it("moves to a private temp directory when the data directory is too deep, and removes it on cleanup", () => {
    const preferred = path.join("/work/a-long-worktree-name/test-data/e2e-123456", "jupyter", "runtime");
    expect(socketsFitIn(preferred)).toBe(false);
    const { dir, cleanup } = socketRuntimeDir(preferred, scratch);
    expect(dir.startsWith(path.join(scratch, "argus-jupyter-"))).toBe(true);
    expect(socketsFitIn(dir)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    cleanup();
    expect(existsSync(dir)).toBe(false);
  });

  it("refuses in words when even the temp dir is too deep", () => {
    const deepTmp = path.join(scratch, "t".repeat(SOCKET_PATH_MAX));
    mkdirSync(deepTmp);
    expect(() => socketRuntimeDir(path.join(deepTmp, "runtime"), deepTmp)).toThrow(/too deep for a Unix socket path/);
    expect(readdirSync(deepTmp)).toEqual([]); // the directory it tried is not left behind
  });
});
