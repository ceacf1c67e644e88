import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { adoptionJournal, adoptWorkspace, copyWorkspaceFiles } from "./workspace";

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

  /** The state a server killed part way through adopting `sessionDir` into `kernelDir` leaves: journal written, `moved` entries moved. */
  function interruptedAdoption(root: string, moved: string[], sessionDirGone: boolean): { kernelDir: string; sessionDir: string } {
    const kernelDir = path.join(root, "_pool", "killed");
    const sessionDir = path.join(root, "s");
    mkdirSync(kernelDir, { recursive: true });
    mkdirSync(sessionDir, { recursive: true });
    for (const name of ["photo.png", "notes.txt"]) writeFileSync(path.join(sessionDir, name), name);
    mkdirSync(path.dirname(adoptionJournal(sessionDir)), { recursive: true });
    writeFileSync(adoptionJournal(sessionDir), kernelDir);
    for (const name of moved) renameSync(path.join(sessionDir, name), path.join(kernelDir, name));
    if (sessionDirGone) rmdirSync(sessionDir);
    return { kernelDir, sessionDir };
  }

  it("takes back the files an adoption cut off by a kill -9 left in its kernel's directory (all moved, the session's directory gone)", async () => {
    const root = path.join(scratch.dir, "killed-after-moving");
    const { kernelDir: stranded, sessionDir } = interruptedAdoption(root, ["photo.png", "notes.txt"], true);
    const next = path.join(root, "_pool", "next");
    mkdirSync(next);
    await adoptWorkspace(next, sessionDir);
    expect(readdirSync(sessionDir).sort()).toEqual(["notes.txt", "photo.png"]);
    expect(readFileSync(path.join(sessionDir, "photo.png"), "utf8")).toBe("photo.png");
    expect(existsSync(stranded)).toBe(false);
    expect(existsSync(adoptionJournal(sessionDir))).toBe(false);
  });

  it("takes back the files an adoption cut off part way left, and keeps the ones it had not moved yet", async () => {
    const root = path.join(scratch.dir, "killed-midway");
    const { sessionDir } = interruptedAdoption(root, ["photo.png"], false);
    const next = path.join(root, "_pool", "next");
    mkdirSync(next);
    await adoptWorkspace(next, sessionDir);
    expect(readdirSync(sessionDir).sort()).toEqual(["notes.txt", "photo.png"]);
    expect(readdirSync(path.join(root, "_pool"))).toEqual([]);
  });

  it("takes nothing from a journal naming a directory that is not a pooled kernel's", async () => {
    const root = path.join(scratch.dir, "journal-elsewhere");
    const other = path.join(root, "other-session");
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, "theirs.txt"), "theirs");
    const sessionDir = path.join(root, "s");
    mkdirSync(path.dirname(adoptionJournal(sessionDir)), { recursive: true });
    writeFileSync(adoptionJournal(sessionDir), other);
    const next = path.join(root, "_pool", "next");
    mkdirSync(next, { recursive: true });
    await adoptWorkspace(next, sessionDir);
    expect(readdirSync(sessionDir)).toEqual([]);
    expect(readdirSync(other)).toEqual(["theirs.txt"]);
    expect(existsSync(adoptionJournal(sessionDir))).toBe(false);
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
