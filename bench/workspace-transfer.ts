/**
 * Workspace transfer benchmark (issue #14, kernels any instance can reach). Prints, side by side in
 * one run, the time to put an upload into a session's workspace and to read a file back:
 *  - through the kernel (ARGUS_WORKSPACE_TRANSPORT=kernel: silent cells, 512 KiB chunks, sha256
 *    checked on both sides) on a real external jupyter-server;
 *  - on a shared disk (the default transport: workspace-fs, no link followed), the baseline.
 *
 *   npm run bench:transfer
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@/lib/foundation/config";
import { readWorkspaceFile, writeWorkspaceFile } from "@/lib/engines/files/workspace-fs";
import { createArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/features/sessions/service";
import { startExternalJupyter } from "@/tests/helpers/external-jupyter";
import { tempDir } from "@/tests/helpers/temp-dir";
import { fmt, percentile, table } from "./lib/stats";

const SIZES_MB = [1, 10, 40];
const REPS = 3;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const scratch = tempDir("argus-bench-transfer-");
  const theirs = await startExternalJupyter(scratch.dir);
  const core = await createArgusCore(
    loadConfig(
      {
        ARGUS_DATA_DIR: path.join(scratch.dir, "data"),
        JUPYTER_URL: theirs.url,
        JUPYTER_TOKEN: theirs.token,
        ARGUS_KERNEL_NAME: "argus-python",
        ARGUS_KERNEL_POOL: "0",
        ARGUS_KERNEL_PRELOAD: "none",
        ARGUS_WORKSPACE_TRANSPORT: "kernel",
      },
      process.cwd(),
    ),
  );
  try {
    await core.start();
    const session = await createSession(core, null);
    const { kernel } = await core.kernels!.acquire(session.id);
    const files = kernel.files!;
    const shared = path.join(scratch.dir, "shared-workspace");
    mkdirSync(shared);
    const rows: (string | number)[][] = [["size", "push via kernel ms", "write shared ms", "pull via kernel ms", "read shared ms", "kernel MB/s in/out"]];
    for (const mb of SIZES_MB) {
      const bytes = randomBytes(mb * 1024 * 1024);
      const push: number[] = [];
      const write: number[] = [];
      const pull: number[] = [];
      const read: number[] = [];
      for (let i = 0; i < REPS; i++) {
        push.push(await timed(() => files.push(`f${mb}.bin`, bytes)));
        write.push(await timed(() => writeWorkspaceFile(shared, `f${mb}.bin`, bytes)));
        pull.push(await timed(() => files.pull(`f${mb}.bin`, bytes.length)));
        read.push(await timed(() => readWorkspaceFile(shared, `f${mb}.bin`, { maxBytes: bytes.length })));
      }
      const [p, w, l, r] = [push, write, pull, read].map((xs) => percentile(xs, 50));
      rows.push([`${mb} MB`, fmt(p!, 0), fmt(w!, 1), fmt(l!, 0), fmt(r!, 1), `${fmt(mb / (p! / 1000), 1)} / ${fmt(mb / (l! / 1000), 1)}`]);
    }
    console.log(`workspace transfer, median of ${REPS} (external jupyter-server on loopback, 2-core machine shared with other work)`);
    console.log(table(rows));
  } finally {
    await core.close();
    await theirs.server.stop();
    scratch.cleanup();
  }
}

void main();
