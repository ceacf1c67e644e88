import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectIsolation, findOnPath, smokeArgs, systemDirArgs } from "./isolation";

const scratch = mkdtempSync(path.join(os.tmpdir(), "argus-isolation-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in `bwrap` on its own PATH, to see how detection reads a failing one. */
function fakeBwrap(name: string, script: string): string {
  const dir = path.join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  const file = path.join(dir, "bwrap");
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return dir;
}

const hasBwrap = findOnPath("bwrap", process.env.PATH ?? "") !== null;

describe("detectIsolation", () => {
  it.runIf(hasBwrap)("finds a working bubblewrap on this machine", async () => {
    const started = Date.now();
    const isolation = await detectIsolation();
    expect(isolation).toEqual({ kind: "bubblewrap", reason: expect.stringContaining("bubblewrap") });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("says none, and why, when bwrap is not on PATH", async () => {
    const isolation = await detectIsolation({ searchPath: path.join(scratch, "empty") });
    expect(isolation.kind).toBe("none");
    expect(isolation.reason).toMatch(/not installed/);
  });

  it("says none with bwrap's own complaint when the test run fails", async () => {
    const dir = fakeBwrap("failing", 'echo "bwrap: No permissions to create new namespace" >&2; exit 1');
    const isolation = await detectIsolation({ searchPath: dir });
    expect(isolation.kind).toBe("none");
    expect(isolation.reason).toContain("exited with code 1: bwrap: No permissions to create new namespace");
  });

  it("says none when the test run hangs", async () => {
    const dir = fakeBwrap("hanging", "exec sleep 30");
    const isolation = await detectIsolation({ searchPath: dir, timeoutMs: 300 });
    expect(isolation.kind).toBe("none");
    expect(isolation.reason).toMatch(/did not finish a test run within 300 ms/);
  });
});

describe("smoke run arguments", () => {
  it("unshares everything, drops capabilities and keeps the process group", () => {
    const args = smokeArgs();
    expect(args).toEqual(expect.arrayContaining(["--unshare-all", "--die-with-parent", "--cap-drop", "ALL"]));
    expect(args).not.toContain("--new-session");
    expect(args).not.toContain("--share-net");
    expect(args.slice(-2)).toEqual(["--", "/usr/bin/true"]);
  });

  it("recreates merged-/usr symlinks instead of binding them, and binds real directories", () => {
    const args = systemDirArgs();
    const at = args.indexOf("/bin");
    if (lstatSync("/bin").isSymbolicLink()) {
      expect(args.slice(at - 2, at + 1)).toEqual(["--symlink", readlinkSync("/bin"), "/bin"]);
    } else {
      expect(args.slice(at - 2, at + 1)).toEqual(["--ro-bind", "/bin", "/bin"]);
    }
  });
});
