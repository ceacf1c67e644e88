import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { copyWorkspaceFiles, readWorkspaceFile, removeWorkspaceFile, writeWorkspaceFile } from "./workspace-fs";
import { workspaceParts, WorkspacePathError } from "./workspace-path";
import { removeWorkspaceTree, workspaceUsage } from "./workspace-tree";

const scratch = tempDir("argus-wsfs-");
afterAll(scratch.cleanup);

let n = 0;
/** A host directory with a secret beside a workspace, as data/argus.db sits beside data/sessions/<id>. */
function layout() {
  const base = path.join(scratch.dir, `case-${n++}`);
  const ws = path.join(base, "sessions", "s1");
  mkdirSync(ws, { recursive: true });
  const secret = path.join(base, "secret.txt");
  writeFileSync(secret, "HOST-SECRET");
  return { base, ws, secret };
}

describe("workspaceParts", () => {
  it("accepts relative paths and the kernel's own /workspace prefix", () => {
    expect(workspaceParts("a.png")).toEqual(["a.png"]);
    expect(workspaceParts("./out/b.png")).toEqual(["out", "b.png"]);
    expect(workspaceParts("/workspace/out/b.png")).toEqual(["out", "b.png"]);
  });
  it("refuses every way out", () => {
    for (const bad of ["", "/etc/passwd", "../x", "a/../../x", "a//b", "a/./b", "a/", ".", "..", "a\u0000b", "x".repeat(600), "/workspace/../x"]) {
      expect(() => workspaceParts(bad), bad).toThrow(WorkspacePathError);
    }
  });
});

describe("readWorkspaceFile", () => {
  it("reads a regular file, also in a subdirectory", async () => {
    const { ws } = layout();
    mkdirSync(path.join(ws, "sub"));
    writeFileSync(path.join(ws, "sub", "a.txt"), "hello");
    expect((await readWorkspaceFile(ws, "sub/a.txt", { maxBytes: 100 })).toString()).toBe("hello");
  });

  it("never follows a link, in the last component or on the way, and never names a host path", async () => {
    const { ws, secret, base } = layout();
    symlinkSync("../../secret.txt", path.join(ws, "link.txt"));
    symlinkSync(secret, path.join(ws, "abs.txt"));
    symlinkSync(base, path.join(ws, "dir"));
    for (const rel of ["link.txt", "abs.txt", "dir/secret.txt"]) {
      const error = await readWorkspaceFile(ws, rel, { maxBytes: 100 }).catch((e: unknown) => e as Error);
      expect(error, rel).toBeInstanceOf(WorkspacePathError);
      expect((error as Error).message).not.toContain(base);
      expect((error as Error).message).not.toContain("/proc/self");
    }
  });

  it("refuses a FIFO without hanging, directories and files over the limit", async () => {
    const { ws } = layout();
    execFileSync("mkfifo", [path.join(ws, "pipe")]);
    mkdirSync(path.join(ws, "d"));
    writeFileSync(path.join(ws, "big"), Buffer.alloc(1000));
    await expect(readWorkspaceFile(ws, "pipe", { maxBytes: 100 })).rejects.toThrow(/not a regular file/);
    await expect(readWorkspaceFile(ws, "d", { maxBytes: 100 })).rejects.toThrow(WorkspacePathError);
    await expect(readWorkspaceFile(ws, "big", { maxBytes: 100 })).rejects.toThrow(/too large/);
    await expect(readWorkspaceFile(ws, "missing", { maxBytes: 100 })).rejects.toThrow(/There is no file "missing"/);
  });
});

describe("writeWorkspaceFile", () => {
  it("replaces a planted link instead of writing through it", async () => {
    const { ws, secret } = layout();
    symlinkSync("../../secret.txt", path.join(ws, "image.png"));
    await writeWorkspaceFile(ws, "image.png", Buffer.from("UPLOAD"));
    expect(readFileSync(secret, "utf8")).toBe("HOST-SECRET");
    expect(lstatSync(path.join(ws, "image.png")).isFile()).toBe(true);
    expect(readFileSync(path.join(ws, "image.png"), "utf8")).toBe("UPLOAD");
    expect(readdirSync(ws)).toEqual(["image.png"]);
  });

  it("takes plain names only", async () => {
    const { ws } = layout();
    await expect(writeWorkspaceFile(ws, "a/b.png", Buffer.from("x"))).rejects.toThrow(WorkspacePathError);
    await expect(writeWorkspaceFile(ws, "../b.png", Buffer.from("x"))).rejects.toThrow(WorkspacePathError);
  });
});

describe("copyWorkspaceFiles", () => {
  it("copies regular files and skips links, FIFOs, directories and oversized files", async () => {
    const { ws, base } = layout();
    const to = path.join(base, "iso");
    mkdirSync(to);
    writeFileSync(path.join(ws, "a.png"), "A");
    writeFileSync(path.join(ws, "big.bin"), Buffer.alloc(200));
    symlinkSync("../../secret.txt", path.join(ws, "db.png"));
    execFileSync("mkfifo", [path.join(ws, "pipe")]);
    mkdirSync(path.join(ws, "dir"));
    expect(await copyWorkspaceFiles(ws, to, { maxBytesPerFile: 100 })).toEqual(["a.png"]);
    expect(readdirSync(to)).toEqual(["a.png"]);
    expect(readFileSync(path.join(to, "a.png"), "utf8")).toBe("A");
  });

  it("copies nothing from a workspace that does not exist", async () => {
    const { base } = layout();
    expect(await copyWorkspaceFiles(path.join(base, "nope"), base, { maxBytesPerFile: 100 })).toEqual([]);
    expect(existsSync(path.join(base, "nope"))).toBe(false);
  });
});

describe("removeWorkspaceTree", () => {
  it("removes links, FIFOs and nested directories, never what a link points at", async () => {
    const { ws, base, secret } = layout();
    const hostDir = path.join(base, "host");
    mkdirSync(hostDir);
    writeFileSync(path.join(hostDir, "keep.txt"), "KEEP");
    mkdirSync(path.join(ws, "a", "b"), { recursive: true });
    writeFileSync(path.join(ws, "a", "b", "f.txt"), "x");
    symlinkSync("../../../host", path.join(ws, "a", "dirlink"));
    symlinkSync("../../secret.txt", path.join(ws, "filelink"));
    execFileSync("mkfifo", [path.join(ws, "a", "pipe")]);
    await removeWorkspaceTree(ws);
    expect(existsSync(ws)).toBe(false);
    expect(readFileSync(secret, "utf8")).toBe("HOST-SECRET");
    expect(readdirSync(hostDir)).toEqual(["keep.txt"]);
  });

  it("is done at once when the workspace is already gone", async () => {
    const { base } = layout();
    await expect(removeWorkspaceTree(path.join(base, "nope"))).resolves.toBeUndefined();
  });
});

describe("workspaceUsage", () => {
  it("adds up the files and folders, counting a planted link as itself, never its target", async () => {
    const { base, ws } = layout();
    writeFileSync(path.join(ws, "a.bin"), Buffer.alloc(256 * 1024, 1));
    mkdirSync(path.join(ws, "sub", "deeper"), { recursive: true });
    writeFileSync(path.join(ws, "sub", "deeper", "b.bin"), Buffer.alloc(256 * 1024, 1));
    const big = path.join(base, "host-big.bin");
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024, 1));
    symlinkSync(big, path.join(ws, "link-to-file"));
    symlinkSync(base, path.join(ws, "link-to-dir"));
    const usage = await workspaceUsage(ws);
    expect(usage.partial).toBe(false);
    expect(usage.entries).toBe(6);
    expect(usage.bytes).toBeGreaterThanOrEqual(512 * 1024);
    expect(usage.bytes).toBeLessThan(1024 * 1024);
  });

  it("counts what a sparse file really takes, stops at its entry bound, and is zero for a missing workspace", async () => {
    const { base, ws } = layout();
    execFileSync("truncate", ["-s", "8G", path.join(ws, "sparse.bin")]);
    for (let i = 0; i < 20; i++) writeFileSync(path.join(ws, `f${i}`), "x");
    expect((await workspaceUsage(ws)).bytes).toBeLessThan(1024 * 1024);
    expect(await workspaceUsage(ws, { maxEntries: 5 })).toMatchObject({ entries: 5, partial: true });
    expect(await workspaceUsage(path.join(base, "nope"))).toEqual({ bytes: 0, entries: 0, partial: false });
  });
});

describe("removeWorkspaceFile", () => {
  it("removes a file, and only the link when the name is a link (its target and a linked folder's content stay)", async () => {
    const { base, ws, secret } = layout();
    mkdirSync(path.join(ws, "sub"));
    writeFileSync(path.join(ws, "sub", "a.png"), "x");
    symlinkSync(secret, path.join(ws, "sub", "link.png"));
    symlinkSync(base, path.join(ws, "out"));
    await removeWorkspaceFile(ws, "sub/a.png");
    await removeWorkspaceFile(ws, "sub/link.png");
    await removeWorkspaceFile(ws, "sub/gone.png");
    await expect(removeWorkspaceFile(ws, "out/secret.txt")).rejects.toThrow(WorkspacePathError);
    await expect(removeWorkspaceFile(ws, "../secret.txt")).rejects.toThrow(WorkspacePathError);
    expect(readdirSync(path.join(ws, "sub"))).toEqual([]);
    expect(readFileSync(secret, "utf8")).toBe("HOST-SECRET");
  });
});
