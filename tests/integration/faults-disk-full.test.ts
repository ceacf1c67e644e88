import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadScenario, startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import { ROLE_MODELS, scenarioPath, watchSession } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";

/**
 * A real full disk: Argus's data directory is a small tmpfs, and the test
 * fills it with a file the way a log or a download would. Mounting needs root
 * (CI runs as root); elsewhere the suite says why it skipped.
 */
const isRoot = process.getuid?.() === 0;
const MB = 1024 * 1024;

const freeBytes = (dir: string) => {
  const s = statfsSync(dir);
  return Number(s.bavail) * Number(s.bsize);
};

/** Writes `bytes` (or until the disk refuses) into `file`; returns what was written. */
function fill(file: string, bytes = Number.POSITIVE_INFINITY): number {
  const fd = openSync(file, "a");
  const chunk = Buffer.alloc(MB, 1);
  let written = 0;
  try {
    while (written < bytes) written += writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!isRoot)("a full data disk", () => {
  let mount = "";
  let server: RunningServer | null = null;
  let model: ScriptedModel | null = null;

  afterAll(async () => {
    if (process.env.ARGUS_TEST_DEBUG) console.log(server?.output());
    await server?.kill();
    await model?.close();
    if (mount) {
      execFileSync("umount", ["-l", mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it("refuses new work with a readable 507, ends a run the disk cut off, tells the chat, and records it once space is back", async () => {
    mount = mkdtempSync(path.join(os.tmpdir(), "argus-disk-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=96m,mode=0700", "argus-test-disk", mount]);
    const dataDir = path.join(mount, "data");
    const filler = path.join(mount, "filler");
    model = await startScriptedModel(loadScenario(scenarioPath("disk-full.json")));
    server = await startArgus({
      dataDir,
      env: { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: "0", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ARGUS_MIN_FREE_MB: "24", ...ROLE_MODELS },
    });
    const call = api(server.url);
    const session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
    const watch = await watchSession(server.url, session);
    const send = (content: string) =>
      call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content } });
    const transcript = async () =>
      (await call("GET", `/api/sessions/${session.id}`, { token: session.token })).json as { state: string; messages: { role: string; content: string; runId: string | null }[] };

    // 1. Low on space before any work starts: every way in says so, and nothing is half-written.
    fill(filler, freeBytes(mount) - 8 * MB);
    const created = await call("POST", "/api/sessions");
    expect(created.status).toBe(507);
    expect(created.json.error.code).toBe("insufficient_storage:session");
    expect(created.json.error.message).toMatch(/almost out of disk space.*MB free/);
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(64)]), "a.png");
    const uploaded = await call("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
    expect(uploaded.status).toBe(507);
    expect(uploaded.json.error.code).toBe("insufficient_storage:upload");
    const refused = await send("count please");
    expect(refused.status).toBe(507);
    expect(refused.json.error.message).not.toMatch(/SQLITE|ENOSPC|Authorization/);
    expect((await transcript()).messages).toHaveLength(0);
    expect((await call("GET", "/api/health")).json.disk).toBe("low");
    unlinkSync(filler);
    expect((await call("GET", "/api/health")).json.disk).toBe("ok");

    // 2. The disk fills up while a cell runs: the cell's observation cannot be written.
    const started = await send("count please");
    expect(started.status).toBe(202);
    const runId = started.json.runId as string;
    // The first cell starts the notebook while there is room; the disk fills during the second.
    await until("the first cell's output", async () => watch.messages.some((m) => m.runId === runId && m.role === "observation"));
    fill(filler);
    const ended = await watch.until(["error", "finished", "stopped"], 90_000, runId).catch((e) => {
      if (process.env.ARGUS_TEST_DEBUG) console.log(JSON.stringify(watch.messages, null, 1), freeBytes(mount));
      throw e;
    });
    expect(ended.agentState).toBe("error");
    expect(ended.notice).toMatch(/disk filled up/);

    // While it stays full: reads still work and show the run ended; new work gets a readable 507.
    const whileFull = await send("again");
    expect(whileFull.status).toBe(507);
    expect(whileFull.json.error.message).toMatch(/disk space|disk is full/);
    expect((await transcript()).state).toBe("error");
    const late = await watchSession(server.url, session);
    const ack = (await late.socket.emitWithAck("sync", { afterSeq: 0 })) as SyncAck;
    expect(ack.ok && ack.state).toMatchObject({ runId, agentState: "error", notice: expect.stringMatching(/disk filled up/) });
    late.socket.disconnect();

    // 3. Space comes back and the person writes again at once: before the new run starts, the chat
    // records how the cut-off run ended (the run router settles it, the run manager writes the
    // kept ending) — once, for its one cause: the disk, never also "the database could not be
    // reached". (Before the 2 s retry timer could write the ending: the router's settle came first,
    // and without the fix wrote "database could not be reached" beside it.)
    unlinkSync(filler);
    const next = await send("again");
    expect(next.status, next.text).toBe(202);
    const recorded = await until("the ending in the transcript", async () => {
      const t = await transcript();
      return t.messages.find((m) => m.runId === runId && m.role === "error_observation" && /disk filled up/.test(m.content));
    });
    expect(recorded).toBeTruthy();
    expect((await watch.until(["finished", "error"], 90_000, next.json.runId)).agentState).toBe("finished");
    expect(watch.messages.filter((m) => m.runId === next.json.runId && m.role === "conversation").map((m) => m.content)).toEqual(["Back to normal."]);
    const after = await transcript();
    const notices = after.messages.filter((m) => m.runId === runId && m.role === "error_observation").map((m) => m.content);
    expect(notices).toEqual([expect.stringMatching(/disk filled up/)]);
    expect(watch.messages.filter((m) => m.runId === runId && m.role === "error_observation")).toHaveLength(1);
    // What happened before the disk filled is all still there.
    expect(after.messages.filter((m) => m.runId === runId).map((m) => m.role)).toEqual(expect.arrayContaining(["user", "conversation", "planner", "error_observation"]));
    watch.socket.disconnect();
  }, 300_000);
});
