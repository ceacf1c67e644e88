import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * scripts/setup-steps.sh, run by real bash: which steps a setup run takes (the "step N/M" counter
 * once said "step 4/3" when a browsing model was set), and with_progress, which keeps a long,
 * silent npm install talking.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const steps = (wantTest: 0 | 1, browserModel: string) =>
  spawnSync("bash", ["-c", 'source scripts/setup-steps.sh && setup_steps "$0" "$1"', String(wantTest), browserModel], { cwd: ROOT, encoding: "utf8" }).stdout.trim().split("\n");

describe("setup_steps", () => {
  it("counts Chromium in when a browsing model is set, and the test tools with --test", () => {
    expect(steps(0, "")).toEqual(["node", "python", "npm"]);
    expect(steps(0, "computer-use-preview")).toEqual(["node", "python", "npm", "chromium"]);
    expect(steps(1, "")).toEqual(["node", "python", "npm", "chromium", "postgres", "redis", "nginx"]);
    expect(steps(1, "computer-use-preview")).toEqual(["node", "python", "npm", "chromium", "postgres", "redis", "nginx"]);
  });

  it("has one step line in setup.sh per step it can list, so no run counts past its total", () => {
    const calls = readFileSync(path.join(ROOT, "scripts/setup.sh"), "utf8").match(/^\s*step "/gm) ?? [];
    expect(calls).toHaveLength(steps(1, "x").length);
  });
});

describe("with_progress", () => {
  it("says it is still working while the command runs, passes its output through and returns its status", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "argus-setup-progress-"));
    try {
      // The command waits for a line on a fifo: it ends when the test has seen a progress line, not after a time.
      const fifo = path.join(dir, "release");
      spawnSync("mkfifo", [fifo]);
      const empty = path.join(dir, "node_modules");
      spawnSync("mkdir", [empty]);
      const child = spawn("bash", ["-c", 'source scripts/setup-steps.sh && with_progress "npm install" "$0" bash -c "read -r line < \\"\\$0\\"; echo got \\$line; exit 7" "$1"', empty, fifo], {
        cwd: ROOT,
        env: { ...process.env, ARGUS_SETUP_TICK_SECONDS: "1" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      await new Promise<void>((resolve) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (/still working/.test(out)) resolve();
        });
      });
      writeFileSync(fifo, "done\n");
      expect(await exited).toBe(7);
      expect(out).toMatch(new RegExp(`^\\[setup\\] npm install: still working, \\d+ s so far, 0 entries in ${empty}$`, "m"));
      expect(out).toMatch(/^got done$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Runs with_progress on `command` (which waits on the fifo it is given last) until its output matches `until`; returns the output. */
  async function progressWhile(dir: string, command: string[], until: RegExp): Promise<string> {
    const fifo = path.join(dir, "release");
    spawnSync("mkfifo", [fifo]);
    const child = spawn("bash", ["-c", 'source scripts/setup-steps.sh && with_progress "npm install" "$0" "$@"', path.join(dir, "node_modules"), ...command, fifo], {
      cwd: ROOT,
      env: { ...process.env, ARGUS_SETUP_TICK_SECONDS: "1" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (until.test(out)) resolve();
      });
    });
    writeFileSync(fifo, "done\n");
    expect(await exited).toBe(0);
    rmSync(fifo);
    return out;
  }

  it("names the package whose install script is running, and says when it compiles native code", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "argus-setup-progress-"));
    try {
      const pkg = path.join(dir, "node_modules", "better-sqlite3");
      spawnSync("mkdir", ["-p", pkg]);
      // npm runs an install script in the package's folder: here one that waits there.
      const running = await progressWhile(dir, ["bash", "-c", 'cd "$0" && read -r line < "$1"', pkg], /install script/);
      expect(running).toMatch(/^\[setup\] npm install: still working, \d+ s so far, running better-sqlite3's install script$/m);

      // A compiler under it (a stand-in named make, as node-gyp runs make): native code built from source.
      writeFileSync(path.join(pkg, "make"), '#!/bin/bash\nread -r line < "$1"\n', { mode: 0o755 });
      const compiling = await progressWhile(dir, ["bash", "-c", 'cd "$0" && ./make "$1"', pkg], /compiling/);
      expect(compiling).toMatch(/still working, \d+ s so far, compiling better-sqlite3's native code from source \(no prebuilt binary could be downloaded\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
