/**
 * A data directory deep enough that Jupyter's ipc socket paths would pass the 107-byte Unix limit
 * (a checkout in a long home path): kernels still start and run, sandbox included
 * (lib/engines/kernels/socket-runtime-dir.ts). Before, every kernel start failed with ZeroMQ's
 * "File name too long" and a run ended in "Unhandled error".
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { socketsFitIn } from "@/lib/engines/kernels/socket-runtime-dir";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-deep-");
const deep = path.join(scratch.dir, "home-of-someone-with-a-long-name", "projects", "vision", "argus-checkout", "data");
/**
 * The private runtime directory this test's jupyter-server made in the temp dir, as its launch
 * noted it (socket-runtime-dir.ts): other servers on the machine (a benchmark beside the suite)
 * make and remove theirs meanwhile, so the temp dir's listing cannot tell which is this one's.
 */
const notedRuntimes = () =>
  (readdirSync(path.join(deep, "jupyter"), { recursive: true }) as string[])
    .filter((name) => path.basename(name) === "runtime.elsewhere")
    .map((name) => readFileSync(path.join(deep, "jupyter", name), "utf8").trim());
let k: KernelCore;
beforeAll(async () => {
  mkdirSync(deep, { recursive: true });
  k = await startKernelCore({ ARGUS_DATA_DIR: deep });
}, 120_000);
afterAll(async () => {
  await k?.close();
  scratch.cleanup();
});

it("runs cells when the data directory is too deep for socket paths, and removes the temp runtime on close", async () => {
  expect(socketsFitIn(path.join(deep, "jupyter", "runtime"))).toBe(false);
  const s = await k.newSession();
  const r = await k.kernels.execute(s.id, "print(6 * 7)");
  expect(r.error).toBeNull();
  expect(r.stdout.trim()).toBe("42");
  const made = notedRuntimes();
  expect(made).toHaveLength(1);
  expect(path.dirname(made[0]!)).toBe(os.tmpdir());
  // The kernel's connection file is there: it is the directory this server runs its kernels from.
  expect(readdirSync(made[0]!).some((name) => /^kernel-.*\.json$/.test(name))).toBe(true);
  const closing = k;
  k = undefined as unknown as KernelCore; // closed here, not again in afterAll
  await closing.close();
  expect(made.filter((dir) => existsSync(dir))).toEqual([]);
  expect(notedRuntimes()).toEqual([]);
}, 120_000);
