/**
 * The long form of tests/integration/fuzz.test.ts: tens of thousands of
 * random and malformed HTTP requests and thousands of Socket.io events
 * against one real Argus server (production build, scripted model, Jupyter
 * off), from the same seeded generator (tests/helpers/fuzz/).
 *
 * Prints the answers per status, every broken rule grouped by kind (with
 * replayable case numbers), the slowest answers, latency percentiles, and the
 * server's memory before and after. Exits 1 if any rule was broken or the
 * server died.
 *
 *   npx tsx bench/fuzz.ts [--requests 50000] [--events 5000] [--seed 24301] [--concurrency 8]
 *   (needs the production build: bash scripts/ensure-build.sh)
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { api, startArgus } from "@/tests/helpers/argus-server";
import type { FuzzContext, FuzzSession } from "@/tests/helpers/fuzz/http-cases";
import { Rng } from "@/tests/helpers/fuzz/rng";
import { runHttpFuzz } from "@/tests/helpers/fuzz/run-http";
import { runSocketFuzz } from "@/tests/helpers/fuzz/run-socket";
import { tinyPng } from "@/tests/helpers/fuzz/uploads";
import { tempDir } from "@/tests/helpers/temp-dir";
import { fmt, percentile, table } from "./lib/stats";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "50000" },
    events: { type: "string", default: "5000" },
    seed: { type: "string", default: String(0x5eed) },
    concurrency: { type: "string", default: "8" },
  },
});
const REQUESTS = Number(args.requests);
const EVENTS = Number(args.events);
const SEED = Number(args.seed);
const CONCURRENCY = Number(args.concurrency);
const MAX_UPLOAD_MB = 1;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function main(): Promise<void> {
  const scratch = tempDir("argus-fuzz-bench-");
  const model = await startScriptedModel({ name: "fuzz", turns: [{ model: "conversation", toolCalls: [{ name: "reply", args: { response: "ok" } }] }] });
  const server = await startArgus({
    dataDir: scratch.dir,
    env: { ARGUS_JUPYTER: "off", ARGUS_MAX_UPLOAD_MB: String(MAX_UPLOAD_MB), OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ARGUS_MODEL_MAX_RETRIES: "0", ...ROLE_MODELS },
  });
  const pid = server.proc.pid!;
  const call = api(server.url);
  let made = 0;
  const newSession = async (): Promise<FuzzSession> => {
    const res = await call("POST", "/api/sessions");
    const s: FuzzSession = { id: res.json.id, token: res.json.token, cookie: res.headers.get("set-cookie")!.split(";")[0]!, browserProof: res.json.browserProof, files: [] };
    const form = new FormData();
    form.set("file", new Blob([tinyPng(new Rng(SEED + ++made)) as BlobPart]), "seed.png");
    const up = await call("POST", `/api/sessions/${s.id}/uploads`, { token: s.token, raw: form });
    if (up.status !== 201) throw new Error(`seed upload failed: ${up.status} ${up.text}`);
    s.files.push(up.json.id);
    return s;
  };
  const ctx: FuzzContext = { sessions: [], host: new URL(server.url).host };
  for (let i = 0; i < 4; i++) ctx.sessions.push(await newSession());
  const rssBefore = rssMb(pid);
  let failed = false;

  try {
    console.log(`Fuzzing ${server.url} (pid ${pid}): ${REQUESTS} HTTP requests, concurrency ${CONCURRENCY}, seed ${SEED}…`);
    const http = await runHttpFuzz({
      base: server.url,
      ctx,
      seed: SEED,
      count: REQUESTS,
      concurrency: CONCURRENCY,
      budgetMs: 60 * 60_000,
      maxUploadBytes: MAX_UPLOAD_MB * 1024 * 1024,
      newSession,
    });
    console.log(`\nHTTP: ${http.sent} answers in ${fmt(http.durationMs / 1000, 1)} s (${fmt(http.sent / (http.durationMs / 1000), 0)} req/s)\n`);
    console.log(table([["status", "count", "share"], ...http.statuses.rows().map(([k, v]) => [k, v, `${fmt((100 * v) / http.generated, 1)}%`])]));
    console.log(`\nlatency ms: p50 ${fmt(percentile(http.times, 50))}  p90 ${fmt(percentile(http.times, 90))}  p99 ${fmt(percentile(http.times, 99))}  max ${fmt(percentile(http.times, 100))}`);
    console.log("slowest answers:");
    for (const s of http.slowest) console.log(`  ${fmt(s.ms, 0)} ms  ${s.status}  ${s.label}`);
    if (http.violations.total() > 0) {
      failed = true;
      console.log(`\nHTTP rules broken (${http.violations.total()}):\n${http.violations.summary()}`);
    } else console.log("\nHTTP rules broken: none");

    console.log(`\nSocket.io: ${EVENTS} cases, 8 sockets, seed ${SEED + 1}…`);
    const sock = await runSocketFuzz({ base: server.url, ctx, seed: SEED + 1, count: EVENTS, workers: 8, ackTimeoutMs: 1500, budgetMs: 30 * 60_000 });
    console.log(`Socket.io: ${sock.sent} cases in ${fmt(sock.durationMs / 1000, 1)} s\n`);
    console.log(table([["outcome", "count"], ...sock.outcomes.rows()]));
    if (sock.violations.total() > 0) {
      failed = true;
      console.log(`\nSocket.io rules broken (${sock.violations.total()}):\n${sock.violations.summary()}`);
    } else console.log("\nSocket.io rules broken: none");

    const health = await call("GET", "/api/health");
    const alive = server.proc.exitCode === null && server.proc.signalCode === null;
    console.log(`\nserver: pid ${server.proc.pid} ${alive ? "alive" : "DEAD"}, /api/health ${health.status} ${health.text}`);
    console.log(`server RSS: ${fmt(rssBefore, 0)} MB before, ${alive ? fmt(rssMb(pid), 0) : "n/a"} MB after`);
    const complaints = server.output().split("\n").filter((l) => /unexpected error|socket handler failed|uncaught|unhandled/i.test(l));
    console.log(`server log lines about unexpected errors: ${complaints.length}${complaints.length ? `\n  ${complaints.slice(0, 5).join("\n  ")}` : ""}`);
    if (!alive || health.status !== 200 || server.proc.pid !== pid) failed = true;
  } finally {
    await server.kill();
    await model.close();
    scratch.cleanup();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
