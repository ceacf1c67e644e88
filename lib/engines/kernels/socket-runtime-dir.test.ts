import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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
    const preferred = path.join(scratch, "a-long-worktree-name".padEnd(80, "-"), "test-data", "jupyter", "runtime");
    expect(socketsFitIn(preferred)).toBe(false);
    const { dir, cleanup } = socketRuntimeDir(preferred, scratch);
    expect(dir.startsWith(path.join(scratch, "argus-jupyter-"))).toBe(true);
    expect(socketsFitIn(dir)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    cleanup();
    expect(existsSync(dir)).toBe(false);
  });

  it("removes the temp dir a killed launch left (it never ran its cleanup) when the same launch dir starts again", () => {
    const tmp = mkdtempSync(path.join(scratch, "t-"));
    const preferred = path.join(scratch, "launch-".padEnd(80, "x"), "runtime");
    const killed = socketRuntimeDir(preferred, tmp);
    writeFileSync(path.join(killed.dir, "kernel-1-ipc-1"), "");
    const next = socketRuntimeDir(preferred, tmp);
    expect(existsSync(killed.dir)).toBe(false);
    expect(readdirSync(tmp)).toEqual([path.basename(next.dir)]);
    next.cleanup();
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(`${preferred}.elsewhere`)).toBe(false);
  });

  it("removes only what it made: never a noted path outside the temp dir, a link, or another name", () => {
    const tmp = mkdtempSync(path.join(scratch, "t-"));
    const preferred = path.join(scratch, "launch-".padEnd(80, "y"), "runtime");
    mkdirSync(path.dirname(preferred), { recursive: true });
    const outside = mkdtempSync(path.join(scratch, "argus-jupyter-"));
    const target = mkdtempSync(path.join(scratch, "target-"));
    const link = path.join(tmp, "argus-jupyter-abcdef");
    symlinkSync(target, link);
    const otherName = path.join(tmp, "someone-elses");
    mkdirSync(otherName);
    for (const noted of [outside, link, otherName]) {
      writeFileSync(`${preferred}.elsewhere`, noted);
      socketRuntimeDir(preferred, tmp).cleanup();
    }
    expect(existsSync(outside)).toBe(true);
    expect(existsSync(link) && existsSync(target)).toBe(true);
    expect(existsSync(otherName)).toBe(true);
  });

  it("refuses in words when even the temp dir is too deep", () => {
    const deepTmp = path.join(scratch, "t".repeat(SOCKET_PATH_MAX));
    mkdirSync(deepTmp);
    expect(() => socketRuntimeDir(path.join(deepTmp, "runtime"), deepTmp)).toThrow(/too deep for a Unix socket path/);
    expect(readdirSync(deepTmp)).toEqual([]); // the directory it tried is not left behind
  });
});
