import { fuzzRequest, type FuzzContext, type FuzzSession } from "./http-cases";
import { judgeHttp, sendFuzz, type HttpAnswer } from "./http-rules";
import { Tally, violationsOf } from "./report";
import { Rng } from "./rng";

export interface HttpFuzzOptions {
  base: string;
  ctx: FuzzContext;
  seed: number;
  count: number;
  concurrency: number;
  /** Stop starting new cases after this long (the run reports how many it sent). */
  budgetMs: number;
  maxUploadBytes: number;
  /** Makes a fresh session (with one upload) to replace one a case deleted. */
  newSession: () => Promise<FuzzSession>;
}

export async function runHttpFuzz(o: HttpFuzzOptions) {
  const r = new Rng(o.seed);
  const statuses = new Tally();
  const violations = violationsOf();
  const times: { ms: number; label: string; status: number }[] = [];
  let next = 0;
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      if (next >= o.count || performance.now() - started > o.budgetMs) return;
      const n = next++;
      // Generated in order from one stream, so the cases depend only on the seed.
      const req = fuzzRequest(r, o.ctx, n, { maxUploadBytes: o.maxUploadBytes });
      const bodyBytes = typeof req.body === "string" ? Buffer.byteLength(req.body) : (req.body?.byteLength ?? 0);
      let res: HttpAnswer;
      try {
        res = await sendFuzz(o.base, req);
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const why = `${(error as Error).name}: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
        statuses.add(`network error (${why})`);
        // The server may answer 413 and close while a body over the limit is still being sent.
        if (bodyBytes > o.maxUploadBytes && /closed|EPIPE|ECONNRESET|UND_ERR_SOCKET/i.test(why)) continue;
        violations.add(`network error on ${req.method} ${req.kind}: ${why}`, `${req.label} (body ${bodyBytes} bytes, seed ${o.seed})`);
        continue;
      }
      sent++;
      statuses.add(String(res.status));
      times.push({ ms: res.ms, label: req.label, status: res.status });
      const bad = judgeHttp(req, res);
      if (bad) violations.add(bad.kind, `${bad.detail} (seed ${o.seed})`);
      if (req.method === "DELETE" && res.status === 204 && req.target) {
        const i = o.ctx.sessions.indexOf(req.target);
        if (i >= 0) o.ctx.sessions[i] = await o.newSession();
      }
      if (req.kind === "uploads" && req.method === "POST" && res.status === 201 && req.target) {
        try {
          req.target.files.push((JSON.parse(res.text) as { id: string }).id);
        } catch {
          violations.add("201 upload without an id", req.label);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  times.sort((a, b) => b.ms - a.ms);
  return { generated: next, sent, statuses, violations, slowest: times.slice(0, 5), times: times.map((t) => t.ms), durationMs: performance.now() - started };
}
