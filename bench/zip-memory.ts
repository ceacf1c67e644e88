/**
 * Server memory under the batch zip bomb of issue 25 (item 4): 8 batch requests
 * at once, each a 563 KB zip of 500 entries of exactly 1 MiB of zeros (they
 * pass the ratio check). Starts the real server (as the integration tests do,
 * ARGUS_JUPYTER off, defaults otherwise), measures its idle RSS as the
 * baseline, fires the 8 requests, samples RSS every 50 ms while they run, then
 * 5 s and 30 s after the last answer (is the memory given back?).
 * Goal: peak under baseline + 300 MB. Before the fix six such requests took it
 * from 0.2 to 3.3 GB, still ~3 GB twelve minutes later.
 *
 *   npm run bench:zips      BENCH_REQUESTS=8 BENCH_ENTRIES=500
 * Writes bench/results/zip-memory.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { bombForm, memoryOf, zipOfZeros } from "@/tests/helpers/zip-bomb";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 8);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 500);
const MB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 1024 / MB)} GB RAM, Node ${process.version}`;
  const loadBefore = loadavg();
  console.log(`bench:zips — ${REQUESTS} requests × ${ENTRIES} entries of 1 MiB of zeros; ${machine}; load average ${loadBefore}`);
  // Made before the server starts: a request sent after seconds of idling can meet it closing its keep-alive socket.
  const zip = zipOfZeros(ENTRIES);
  const scratch = tempDir("argus-bench-zips-");
  const server = await startArgus({ dataDir: scratch.dir, env: { ARGUS_JUPYTER: "off" } });
  try {
    const pid = server.proc.pid!;
    const call = api(server.url);
    const session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
    const db = await openDatabase(server.database);
    try {
      await addFunctionVersion(db, { sessionId: session.id, name: "f", code: "def f(p):\n    return 1\n", test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
    } finally {
      await db.close();
    }

    // Baseline: the idle server after one ordinary request, the median of 20 samples.
    await call("GET", `/api/sessions/${session.id}/batches`, { token: session.token });
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      idle.push(memoryOf(pid).rss);
      await sleep(100);
    }
    const baseline = idle.sort((a, b) => a - b)[10]!;

    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, memoryOf(pid).rss);
        await sleep(50);
      }
    })();
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, () => call("POST", `/api/sessions/${session.id}/batches`, { token: session.token, raw: bombForm(zip) })),
    );
    const seconds = (Date.now() - started) / 1000;
    sampling = false;
    await sampler;
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const shown = [...statuses].map(([s, n]) => `${n} × ${s}`).join(", ");
    const hwm = memoryOf(pid).peak;
    await sleep(5000);
    const after5 = memoryOf(pid).rss;
    await sleep(25_000);
    const after30 = memoryOf(pid).rss;
    const loadAfter = loadavg();

    const rows = [
      ["idle baseline (median RSS)", mb(baseline), "—"],
      [`peak RSS while ${REQUESTS} requests ran (sampled every 50 ms)`, mb(peak), `+${mb(peak - baseline)}`],
      ["RSS 5 s after the last answer", mb(after5), `+${mb(after5 - baseline)}`],
      ["RSS 30 s after the last answer", mb(after30), `+${mb(after30 - baseline)}`],
    ];
    const table = ["| | RSS | over the baseline |", "|---|---|---|", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
    const verdict = peak - baseline < 300 * MB ? "under the +300 MB goal" : "OVER the +300 MB goal";
    const report = `# bench:zips — server memory under the batch zip bomb

${REQUESTS} batch requests at once, each a ${Math.round(zip.byteLength / 1024)} KB zip of ${ENTRIES} entries of exactly 1 MiB of zeros, against the real server
(\`ARGUS_JUPYTER=off\`, default \`ARGUS_BATCH_ZIP_UNPACKS\`). Answers: ${shown} in ${seconds.toFixed(1)} s (503: unpacked and every entry
validated, then refused because this server has no kernels to run a batch; 429: past the zips unpacked at once, not
unpacked). Kernel-reported peak (VmHWM) over the whole run: ${mb(hwm)}. Before the fix (issue 25) six such requests took
the server from 0.2 to 3.3 GB, still ~3 GB twelve minutes later.

${table}

Peak ${verdict}. Machine: ${machine}. Load average before ${loadBefore}, after ${loadAfter}. ${new Date().toISOString()}.
`;
    console.log(report);
    const out = path.join(import.meta.dirname, "results", "zip-memory.md");
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, report);
    console.log(`written to ${path.relative(process.cwd(), out)}`);
  } finally {
    await server.kill();
    scratch.cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
