import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * `npm test` on a fresh machine failed with "Could not get lock
 * /var/lib/dpkg/lock-frontend" while an automatic update ran. setup.sh's
 * apt_get (scripts/apt-get-waiting.sh) waits for the lock instead. Real apt-get,
 * a real fcntl lock held by another process: but apt is pointed (APT_CONFIG,
 * apt's own variable) at a scratch state directory, so the lock held is that
 * directory's lock-frontend, never the machine's: a real apt run by anyone
 * else meanwhile is not blocked, and nothing is installed.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const canRun = process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
const holders: ChildProcess[] = [];

afterEach(() => {
  for (const h of holders.splice(0)) if (h.exitCode === null) h.kill();
});

function scratchApt(dir: string): string {
  for (const sub of ["state/lists/partial", "cache/archives/partial", "sources.list.d", "log"]) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, "state/status"), "");
  writeFileSync(path.join(dir, "sources.list"), "");
  const conf = path.join(dir, "apt.conf");
  writeFileSync(
    conf,
    [
      `Dir::State "${dir}/state";`,
      `Dir::State::status "${dir}/state/status";`,
      `Dir::Cache "${dir}/cache";`,
      `Dir::Etc::sourcelist "${dir}/sources.list";`,
      `Dir::Etc::sourceparts "${dir}/sources.list.d";`,
      `Dir::Log "${dir}/log";`,
    ].join("\n"),
  );
  return conf;
}

/** Holds `lockFile` with an fcntl lock (as dpkg and apt do) until its stdin closes; resolves once held. */
async function holdLock(lockFile: string): Promise<ChildProcess> {
  const holder = spawn("python3", ["-c", "import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)\nfcntl.lockf(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\nsys.stdin.read()", lockFile], { stdio: ["pipe", "pipe", "inherit"] });
  holders.push(holder);
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on("data", (c: Buffer) => c.toString().includes("held") && resolve());
    holder.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return holder;
}

/** setup.sh's apt step as it runs it: `apt_get install -y` (nothing to install in the scratch state). */
function aptGet(conf: string, timeoutSeconds: string) {
  const child = spawn("bash", ["-c", "set -euo pipefail; source scripts/apt-get-waiting.sh; apt_get install -y"], {
    cwd: ROOT,
    env: { ...process.env, APT_CONFIG: conf, ARGUS_APT_LOCK_TIMEOUT: timeoutSeconds, DEBIAN_FRONTEND: "noninteractive" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners: Array<() => void> = [];
  const onData = (c: Buffer) => {
    output += c.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const sees = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => output.includes(text) && resolve();
      listeners.push(check);
      check();
      void exited.then(() => (output.includes(text) ? resolve() : reject(new Error(`apt_get ended without printing "${text}":\n${output}`))));
    });
  return { exited, sees, output: () => output };
}

describe.skipIf(!canRun)("setup.sh's apt step while another apt holds the lock", () => {
  it("waits with apt's visible message while the lock is held, and goes on once it is released", async () => {
    const scratch = tempDir();
    try {
      const conf = scratchApt(scratch.dir);
      const holder = await holdLock(path.join(scratch.dir, "state/lock-frontend"));
      const apt = aptGet(conf, "600");
      await apt.sees("Waiting for cache lock: Could not get lock");
      holder.stdin!.end(); // the other apt finishes
      expect(await apt.exited).toBe(0);
      expect(apt.output()).toContain("0 newly installed");
    } finally {
      scratch.cleanup();
    }
  });

  it("fails, if the lock never frees, with a sentence that says what to do", async () => {
    const scratch = tempDir();
    try {
      const conf = scratchApt(scratch.dir);
      const holder = await holdLock(path.join(scratch.dir, "state/lock-frontend"));
      const apt = aptGet(conf, "1");
      expect(await apt.exited).not.toBe(0);
      expect(apt.output()).toContain(`[setup] apt is still locked after 1 s (held by process ${holder.pid} (python3))`);
      expect(apt.output()).toMatch(/Wait for it to finish .*then run this again; or wait longer with ARGUS_APT_LOCK_TIMEOUT=<seconds>/);
    } finally {
      scratch.cleanup();
    }
  });
});
