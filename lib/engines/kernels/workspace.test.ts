import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { adoptWorkspace, copyWorkspaceFiles } from "./workspace";

const scratch = tempDir();
afterAll(scratch.cleanup);

describe("workspace adoption", () => {
  it("moves a session's files into the kernel's directory and gives it the session's name", async () => {
    const kernelDir = path.join(scratch.dir, "_pool", "k1");
    const sessionDir = path.join(scratch.dir, "s1");
    mkdirSync(kernelDir, { recursive: true });
    mkdirSync(sessionDir, { recursive: true });
    writeFileSync(path.join(kernelDir, ".kernel-made"), "k");
    writeFileSync(path.join(sessionDir, "coins.png"), "png");
    mkdirSync(path.join(sessionDir, "sub"));
    writeFileSync(path.join(sessionDir, "sub", "x.txt"), "x");
    await adoptWorkspace(kernelDir, sessionDir);
    expect(readdirSync(sessionDir).sort()).toEqual([".kernel-made", "coins.png", "sub"]);
    expect(readFileSync(path.join(sessionDir, "sub", "x.txt"), "utf8")).toBe("x");
    expect(readdirSync(path.join(scratch.dir, "_pool"))).toEqual([]);
  });

  it("works when the session has no directory yet", async () => {
    const kernelDir = path.join(scratch.dir, "_pool", "k2");
    mkdirSync(kernelDir, { recursive: true });
    await adoptWorkspace(kernelDir, path.join(scratch.dir, "s2"));
    expect(readdirSync(path.join(scratch.dir, "s2"))).toEqual([]);
  });

  it("copies only top-level files for an isolated kernel", async () => {
    const from = path.join(scratch.dir, "s3");
    const to = path.join(scratch.dir, "iso");
    mkdirSync(path.join(from, "nested"), { recursive: true });
    mkdirSync(to);
    writeFileSync(path.join(from, "a.png"), "a");
    writeFileSync(path.join(from, "nested", "b.png"), "b");
    expect(await copyWorkspaceFiles(from, to)).toEqual(["a.png"]);
    expect(await copyWorkspaceFiles(path.join(scratch.dir, "missing"), to)).toEqual([]);
  });
});
