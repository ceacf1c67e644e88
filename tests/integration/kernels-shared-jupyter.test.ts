/**
 * Kernels on a Jupyter server Argus does not run (JUPYTER_URL), with the workspace moved through
 * the kernel (ARGUS_WORKSPACE_TRANSPORT=kernel): the session's kernel id is in the database, so a
 * restarted Argus reconnects to the same live notebook; a kernel gone from the server is replaced
 * with a note; budgets still hold; transfers are checked; a bad token is explained.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { sessionKernelId } from "@/lib/engines/db/session-kernels";
import { getSession } from "@/lib/engines/db/sessions";
import { checkJupyter } from "@/lib/features/doctor/jupyter-check";
import { registerBridgeMethods } from "@/lib/engines/kernels/bridge";
import { freePort } from "@/lib/engines/kernels/free-port";
import { CHUNK_METADATA_KEY, KernelFiles, silentTransfer } from "@/lib/engines/kernels/kernel-files";
import type { ManagedJupyterServer } from "@/lib/engines/kernels/jupyter-server";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { createSession, removeSession } from "@/lib/features/sessions/service";
import { startExternalJupyter } from "@/tests/helpers/external-jupyter";
import { eventually } from "@/tests/helpers/kernel-core";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-shared-jupyter-");
let theirs: { server: ManagedJupyterServer; rootDir: string; url: string; token: string };
const dataDir = path.join(scratch.dir, "argus-data");
const open: ArgusCore[] = [];

const env = (extra: Record<string, string> = {}) => ({
  ARGUS_DATA_DIR: dataDir,
  JUPYTER_URL: theirs.url,
  JUPYTER_TOKEN: theirs.token,
  ARGUS_KERNEL_NAME: "argus-python",
  ARGUS_KERNEL_POOL: "0",
  ARGUS_KERNEL_PRELOAD: "none",
  ARGUS_WORKSPACE_TRANSPORT: "kernel",
  ...extra,
});

/** An Argus instance on the shared Jupyter, started and ready. */
async function instance(extra: Record<string, string> = {}): Promise<ArgusCore> {
  const core = await createArgusCore(loadConfig(env(extra), process.cwd()));
  open.push(core);
  await core.start();
  return core;
}

async function stop(core: ArgusCore): Promise<void> {
  await core.close();
  open.splice(open.indexOf(core), 1);
}

const notes = async (core: ArgusCore, sessionId: string) =>
  (await core.events.eventsAfter(sessionId, 0))
    .filter((e: ArgusEvent) => "observation" in e && e.observation === "error")
    .map((e) => ("content" in e ? e.content : ""));

// An operator's own server, unsandboxed, not the deployed host (tests/helpers/jupyter-host.ts): on
// the deployed host's bubblewrapped kernels, at load 20+ on 2 cores, the first interrupt of a kernel
// took longer than Argus's fixed 3 s interrupt grace (the notebook was given up), and kernel starts
// ran these tests past their budgets. kernels-deployed-jupyter.test.ts covers the deployed host.
beforeAll(async () => {
  theirs = await startExternalJupyter(scratch.dir);
});
afterAll(async () => {
  for (const core of open.splice(0)) await core.close();
  await theirs?.server.stop();
  scratch.cleanup();
});

describe("a session's notebook on a shared Jupyter", () => {
  it("survives a restart of Argus: the same kernel, its variables intact; a kernel gone meanwhile is replaced with a note", async () => {
    const first = await instance();
    const session = await createSession(first, null);
    expect((await first.kernels!.execute(session.id, "kept = 41\nimport os\nprint(os.getcwd())")).stdout).toMatch(/argus-workspaces/);
    const kernelId = await sessionKernelId(first.db, session.id);
    expect(kernelId).not.toBeNull();
    // Its workspace is on the kernel host, under the Jupyter root, not in Argus's data directory.
    expect(existsSync(path.join(theirs.rootDir, "argus-workspaces", session.id))).toBe(true);
    await stop(first);

    const second = await instance();
    const again = await second.kernels!.execute(session.id, "print(kept + 1)");
    expect(again.error).toBeNull();
    expect(again.stdout).toBe("42\n");
    expect(await sessionKernelId(second.db, session.id)).toBe(kernelId);
    expect(await notes(second, session.id)).toEqual([]);
    await stop(second);

    // Someone shuts the kernel down on the server while no Argus holds it.
    const res = await fetch(`${theirs.url}/api/kernels/${kernelId}`, { method: "DELETE", headers: { authorization: `token ${theirs.token}` } });
    expect(res.status).toBe(204);
    const third = await instance();
    const fresh = await third.kernels!.execute(session.id, "print('kept' in globals())");
    expect(fresh.stdout).toBe("False\n");
    expect(await sessionKernelId(third.db, session.id)).not.toBe(kernelId);
    expect((await notes(third, session.id)).join("\n")).toMatch(/notebook was reset because its kernel is no longer running on the Jupyter server/);
    await stop(third);
  });

  it("a kernel shut down on the server while an instance holds it: the next cell gets a new one, and the chat is told", { timeout: 150_000 }, async () => {
    const core = await instance();
    const session = await createSession(core, null);
    await core.kernels!.execute(session.id, "kept = 1");
    const { kernel } = await core.kernels!.acquire(session.id);
    const res = await fetch(`${theirs.url}/api/kernels/${kernel.id}`, { method: "DELETE", headers: { authorization: `token ${theirs.token}` } });
    expect(res.status).toBe(204);
    // jupyter_server 1.x keeps the websocket open; services notices at its next poll of the
    // server's kernels (every ~10 s). The bound is far above that, not what the test measures.
    await eventually(() => kernel.lost !== null, 90_000);
    expect((await core.kernels!.execute(session.id, "print('kept' in globals())")).stdout).toBe("False\n");
    expect((await notes(core, session.id)).join("\n")).toMatch(/notebook was reset because its kernel stopped/);
    await stop(core);
  });

  it("an instance's idle reaper leaves a kernel another instance went on using; idle everywhere, it is reaped", async () => {
    const idleMs = 30 * 60_000;
    const a = await instance({ ARGUS_KERNEL_IDLE_MINUTES: "30" });
    const b = await instance({ ARGUS_KERNEL_IDLE_MINUTES: "30" });
    const session = await createSession(a, null);
    await a.kernels!.execute(session.id, "shared = 7");
    const aLastUse = Date.now();
    const kernelId = await sessionKernelId(a.db, session.id);
    // The session's next runs went to B: it reconnects to the same kernel and works there.
    expect((await b.kernels!.execute(session.id, "shared += 1\nprint(shared)")).stdout).toBe("8\n");
    expect(await sessionKernelId(b.db, session.id)).toBe(kernelId);

    // By A's own clock the kernel is idle past its limit, but Jupyter saw B use it since: A leaves it.
    expect(await a.kernels!.reap(aLastUse + idleMs)).toEqual([]);
    expect((await b.kernels!.execute(session.id, "print(shared)")).stdout).toBe("8\n");
    expect(await notes(b, session.id)).toEqual([]);

    // Idle for everyone past the limit: A reaps it, and it is gone from the server.
    expect(await a.kernels!.reap(Date.now() + idleMs + 1000)).toEqual([session.id]);
    const res = await fetch(`${theirs.url}/api/kernels/${kernelId}`, { headers: { authorization: `token ${theirs.token}` } });
    expect(res.status).toBe(404);
    await stop(a);
    await stop(b);
  });

  it("deleting a session stops its kernel and its workspace on the server, even one an earlier instance started", async () => {
    const first = await instance();
    const session = await createSession(first, null);
    await first.kernels!.execute(session.id, "open('made-here.txt', 'w').write('x')");
    const kernelId = await sessionKernelId(first.db, session.id);
    await stop(first);
    const remote = path.join(theirs.rootDir, "argus-workspaces", session.id);
    expect(existsSync(path.join(remote, "made-here.txt"))).toBe(true);

    const second = await instance();
    await removeSession(second, (await getSession(second.db, session.id))!);
    const res = await fetch(`${theirs.url}/api/kernels/${kernelId}`, { headers: { authorization: `token ${theirs.token}` } });
    expect(res.status).toBe(404);
    expect(existsSync(remote)).toBe(false);
    await stop(second);
  });

  it("holds the server-side budgets on the external server: a cell past its timeout is interrupted (notebook kept), bridge calls are counted", async () => {
    const core = await instance();
    const session = await createSession(core, null);
    // Defined in a cell of its own: inside the timed cell it raced the 1.5 s budget, which on a busy
    // machine can run out before the cell's first line runs (then `started` never existed).
    await core.kernels!.execute(session.id, "import time\nstarted = 'yes'");
    const stopped = await core.kernels!.execute(session.id, "time.sleep(600)", { timeoutMs: 1500 });
    expect(stopped.error?.name).toBe("TimeoutError");
    expect(stopped.error?.value).toMatch(/Variables defined before it are still there/);
    expect((await core.kernels!.execute(session.id, "print(started)")).stdout).toBe("yes\n");
    // The per-cell bridge budget is the server's too: call 51 of a cell is refused.
    const calls = await core.kernels!.execute(
      session.id,
      "from argus.bridge import ping, BridgeError\nok = 0\ntry:\n    for i in range(60):\n        ping('x'); ok += 1\nexcept BridgeError as error:\n    print(ok, error)",
    );
    expect(calls.stdout).toMatch(/^50 This cell already made 50 calls to model-backed tools/);
    await stop(core);
  });

  it("refuses oversize and damaged transfers through a real kernel", async () => {
    const core = await instance();
    const session = await createSession(core, null);
    await core.kernels!.execute(session.id, "open('big.bin', 'wb').write(b'x' * 5000)");
    const { kernel } = await core.kernels!.acquire(session.id);
    await expect(kernel.files!.pull("big.bin", 1000)).rejects.toThrow(/over the 1000 bytes allowed/);
    expect((await kernel.files!.pull("big.bin", 10_000)).length).toBe(5000);
    // A channel that damages the chunks on the way in: the kernel side refuses to put the file in place.
    const damaging = new KernelFiles(
      silentTransfer(
        (code, metadata) => {
          const data = metadata?.[CHUNK_METADATA_KEY];
          return kernel.runSilent(code, 60_000, data === undefined ? metadata : { [CHUNK_METADATA_KEY]: (data[0] === "A" ? "B" : "A") + data.slice(1) });
        },
        { chunksInMetadata: true },
      ),
    );
    await expect(damaging.push("photo.png", Buffer.alloc(3000, 7))).rejects.toThrow(/checksum mismatch for 'photo.png'/);
    expect((await core.kernels!.execute(session.id, "import os\nprint(os.path.exists('photo.png'))")).stdout).toBe("False\n");
    await stop(core);
  });

  it("lets bridge methods read what a cell handed over, through the kernel, capped and checked", async () => {
    const core = await instance();
    registerBridgeMethods(core.bridge, {
      async peek(params, ctx) {
        const bytes = await ctx.readFile(String(params.path), Number(params.max));
        return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
      },
    });
    const session = await createSession(core, null);
    const cell = [
      "import hashlib, numpy as np",
      "from argus.bridge import call, image_ref, BridgeError",
      "ref = image_ref(np.random.default_rng(1).integers(0, 255, (700, 900, 3), dtype=np.uint8))",
      "data = open(ref, 'rb').read()",
      "seen = call('peek', {'path': ref, 'max': 10_000_000})",
      "print(seen['size'] == len(data) and len(data) > 1_000_000, seen['sha256'] == hashlib.sha256(data).hexdigest())",
      "try:",
      "    call('peek', {'path': ref, 'max': 1000})",
      "except BridgeError as error:",
      "    print('refused:', error)",
    ].join("\n");
    const r = await core.kernels!.execute(session.id, cell);
    expect(r.error).toBeNull();
    expect(r.stdout).toMatch(/^True True\nrefused: .*over the 1000 bytes allowed/);
    await stop(core);
  });

  it("explains a wrong token, in the doctor and when a notebook is needed", async () => {
    const wrong = await createArgusCore(loadConfig(env({ JUPYTER_TOKEN: "wrong", ARGUS_DATA_DIR: path.join(scratch.dir, "wrong") }), process.cwd()));
    open.push(wrong);
    expect((await wrong.health()).jupyter).toBe("down");
    const doctor = await checkJupyter(wrong.config);
    expect(doctor?.ok).toBe(false);
    expect(doctor?.lines[0]).toMatch(/refused JUPYTER_TOKEN \(HTTP 403\)/);
    expect(doctor?.lines.join("\n")).toMatch(/cannot put them in its bubblewrap sandbox/);
    await wrong.start();
    const session = await createSession(wrong, null);
    await expect(wrong.kernels!.execute(session.id, "1")).rejects.toThrow(/refused Argus's token \(HTTP 403\).*Set JUPYTER_TOKEN/);
    await stop(wrong);
    expect((await checkJupyter(loadConfig(env(), process.cwd())))?.ok).toBe(true);
    // Nothing of any session was written under Argus's data directory's workspaces.
    const local = path.join(dataDir, "sessions");
    for (const entry of existsSync(local) ? readdirSync(local) : []) expect(readdirSync(path.join(local, entry))).toEqual([]);
  });

  it("says plainly when the Jupyter server is down", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const core = await createArgusCore(loadConfig(env({ JUPYTER_URL: down, ARGUS_DATA_DIR: path.join(scratch.dir, "down") }), process.cwd()));
    open.push(core);
    expect((await core.health()).jupyter).toBe("down");
    expect((await checkJupyter(core.config))?.lines[0]).toMatch(/cannot reach it \(connection refused\)/);
    await core.start();
    const session = await createSession(core, null);
    await expect(core.kernels!.execute(session.id, "1")).rejects.toThrow(/cannot reach the Jupyter server at http:\/\/127\.0\.0\.1:\d+ .*JUPYTER_URL/);
    await stop(core);
  });
});
