import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import type { FuzzContext, FuzzSession } from "@/tests/helpers/fuzz/http-cases";
import { Rng } from "@/tests/helpers/fuzz/rng";
import { runHttpFuzz } from "@/tests/helpers/fuzz/run-http";
import { runSocketFuzz } from "@/tests/helpers/fuzz/run-socket";
import { tinyPng } from "@/tests/helpers/fuzz/uploads";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * ~2 000 random and malformed HTTP requests and ~500 Socket.io events against
 * one real server (seeded: FUZZ_SEED replays a run). The server must never
 * crash, never answer 5xx, answer every error in the documented JSON shape,
 * and acknowledge every socket event that asks for an ack. bench/fuzz.ts is
 * the long form.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed);
const HTTP_CASES = 2000;
const SOCKET_CASES = 500;
// Small, so bodies over the limit are cheap to send (the 413 path is fuzzed all the same).
const MAX_UPLOAD_MB = 0.5;

const scratch = tempDir("argus-fuzz-");
let model: ScriptedModel;
let server: RunningServer;
let call: ReturnType<typeof api>;
let pid: number;
const ctx: FuzzContext = { sessions: [], host: "" };
let sessionCounter = 0;

async function newSession(): Promise<FuzzSession> {
  const res = await call("POST", "/api/sessions");
  expect(res.status).toBe(201);
  const s: FuzzSession = { id: res.json.id, token: res.json.token, cookie: res.headers.get("set-cookie")!.split(";")[0]!, browserProof: res.json.browserProof, files: [] };
  const form = new FormData();
  form.set("file", new Blob([tinyPng(new Rng(SEED + ++sessionCounter)) as BlobPart]), "seed.png");
  const up = await call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: form });
  expect(up.status, up.text).toBe(201);
  s.files.push(up.json.id);
  return s;
}

beforeAll(async () => {
  // One real answer; later runs get the scripted model's 400 and end in a readable error.
  model = await startScriptedModel({ name: "fuzz", turns: [{ model: "conversation", toolCalls: [{ name: "reply", args: { response: "ok" } }] }] });
  server = await startArgus({
    dataDir: scratch.dir,
    env: {
      ARGUS_JUPYTER: "off",
      ARGUS_MAX_UPLOAD_MB: String(MAX_UPLOAD_MB),
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "scripted",
      ARGUS_MODEL_MAX_RETRIES: "0",
      ...ROLE_MODELS,
    },
  });
  pid = server.proc.pid!;
  call = api(server.url);
  ctx.host = new URL(server.url).host;
  for (let i = 0; i < 3; i++) ctx.sessions.push(await newSession());
});

afterAll(async () => {
  await server?.kill();
  await model?.close();
  scratch.cleanup();
});

/** Lines the server logged about unexpected failures (they would explain a 5xx). */
function serverComplaints(): string {
  return server.output()
    .split("\n")
    .filter((l) => /unexpected error|socket handler failed|uncaught|unhandled/i.test(l))
    .slice(0, 10)
    .join("\n");
}

async function expectAlive(): Promise<void> {
  expect(server.proc.exitCode, server.output().slice(-2000)).toBeNull();
  expect(server.proc.signalCode).toBeNull();
  expect(server.proc.pid).toBe(pid);
  expect(() => process.kill(pid, 0)).not.toThrow();
  const health = await call("GET", "/api/health");
  expect(health.status).toBe(200);
  expect(health.json.ok).toBe(true);
}

describe("fuzzing the public interface", () => {
  it(`answers ${HTTP_CASES} random and malformed HTTP requests with a documented 2xx or a JSON 4xx, never a 5xx`, async () => {
    const result = await runHttpFuzz({
      base: server.url,
      ctx,
      seed: SEED,
      count: HTTP_CASES,
      concurrency: 6,
      // A time bound, not a time assertion: on a slow or busy machine fewer cases run.
      budgetMs: 32_000,
      maxUploadBytes: MAX_UPLOAD_MB * 1024 * 1024,
      newSession,
    });
    const statuses = result.statuses.rows().map(([k, v]) => `${k}: ${v}`).join(", ");
    console.log(`[fuzz] HTTP seed ${SEED}: ${result.sent} answers in ${(result.durationMs / 1000).toFixed(1)} s; ${statuses}; slowest ${result.slowest[0]?.ms.toFixed(0)} ms (${result.slowest[0]?.label})`);
    await expectAlive();
    expect(result.violations.total(), `${result.violations.summary()}\n\nserver log:\n${serverComplaints()}`).toBe(0);
    // Bounded in time, but it must have done real work (all of it on an ordinary machine).
    expect(result.generated).toBeGreaterThanOrEqual(HTTP_CASES / 4);
    // The mix reached past authorisation and validation into the handlers.
    for (const status of result.generated === HTTP_CASES ? ["200", "201", "202", "400", "401", "403", "409", "413", "415"] : ["200", "400", "403"]) {
      expect(result.statuses.counts.get(status) ?? 0, `no ${status} among ${statuses}`).toBeGreaterThan(0);
    }
  }, 60_000);

  it(`acknowledges every one of ${SOCKET_CASES} random socket events that asks for an ack, with {ok: false, error}`, async () => {
    const result = await runSocketFuzz({ base: server.url, ctx, seed: SEED + 1, count: SOCKET_CASES, workers: 5, ackTimeoutMs: 10_000, budgetMs: 16_000 });
    const outcomes = result.outcomes.rows().map(([k, v]) => `${k}: ${v}`).join(", ");
    console.log(`[fuzz] Socket.io seed ${SEED + 1}: ${result.sent} cases in ${(result.durationMs / 1000).toFixed(1)} s; ${outcomes}`);
    await expectAlive();
    expect(result.violations.total(), `${result.violations.summary()}\n\nserver log:\n${serverComplaints()}`).toBe(0);
    expect(result.sent).toBeGreaterThanOrEqual(SOCKET_CASES / 4);
    expect(result.outcomes.counts.get("ack ok:false") ?? 0).toBeGreaterThan(result.sent / 5);
  }, 60_000);

  it("still serves a normal session end to end afterwards, from the same process", async () => {
    await expectAlive();
    const s = await newSession();
    const renamed = await call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { title: "after the fuzz" } });
    expect(renamed.status).toBe(200);
    const view = await call("GET", `/api/sessions/${s.id}`, { token: s.token });
    expect(view.json).toMatchObject({ id: s.id, title: "after the fuzz" });
    const file = await fetch(`${server.url}/api/files/${s.files[0]}?variant=thumb`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(file.status).toBe(200);
    expect(serverComplaints(), "the server logged unexpected failures").toBe("");
  });
});
