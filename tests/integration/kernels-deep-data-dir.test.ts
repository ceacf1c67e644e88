/**
 * A data directory deep enough that Jupyter's ipc socket paths would pass the 107-byte Unix limit
 * (a checkout in a long home path): kernels still start and run, sandbox included
 * (lib/engines/kernels/socket-runtime-dir.ts). Before, every kernel start failed with ZeroMQ's
 * "File name too long" and a run ended in "Unhandled error".
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { socketsFitIn } from "@/lib/engines/kernels/socket-runtime-dir";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-deep-");
const deep = path.join(scratch.dir, "home-of-someone-with-a-long-name", "projects", "vision", "argus-checkout", "data");
/** The private runtime directories jupyter-servers made in the temp dir (socket-runtime-dir.ts). */
const tempRuntimes = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith("argus-jupyter-")).map((name) => path.join(os.tmpdir(), name));
let before: string[] = [];
let k: KernelCore;
beforeAll(async () => {
  before = tempRuntimes();
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
  const made = tempRuntimes().filter((dir) => !before.includes(dir));
  expect(made.length).toBeGreaterThan(0);
  const closing = k;
  k = undefined as unknown as KernelCore; // closed here, not again in afterAll
  await closing.close();
  expect(made.filter((dir) => existsSync(dir))).toEqual([]);
}, 120_000);
