/**
 * Runs per minute through the public HTTP interface, one Argus instance against two on the same
 * engines (one Postgres, one Redis, one shared ARGUS_DATA_DIR; each instance with its own
 * jupyter-server and sandboxed kernels). Count-the-blobs runs as in bench:load (conversation →
 * planner with one cv2 cell → finalize → submit_plan → coder write_code/write_test in an
 * isolated kernel → conversation), the scripted model answering at once. Many sessions run in
 * parallel, each several runs one after another; with two instances, sessions alternate between
 * them (a load balancer without stickiness could send each request anywhere; keeping a session's
 * requests on one instance keeps its notebook on that instance's jupyter-server).
 * Each session has its own scripted model, reached through a router keyed by the session's tag,
 * so parallel sessions never take each other's turns.
 */
import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS, watchSession, type Watch } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { startRouter } from "../load/model-router";
import { plannerRun, scenario, shapesPng } from "../load/scenarios";
import { percentile } from "../lib/stats";

export interface RunsPerMinute {
  instances: number;
  runs: number;
  finished: number;
  states: Record<string, number>;
  wallS: number;
  runsPerMin: number;
  runP50S: number;
  runP99S: number;
}

type Session = { id: string; token: string };
const now = () => performance.now();

export async function runsPerMinute(options: {
  instances: 1 | 2;
  sessions: number;
  runsPerSession: number;
  databaseUrl: string;
  redisUrl: string;
}): Promise<RunsPerMinute> {
  const { sessions, runsPerSession } = options;
  const tags = Array.from({ length: sessions }, (_, i) => `[rpm-${options.instances}-${String(i).padStart(2, "0")}]`);
  const blobsOf = (i: number) => 3 + (i % 6);
  const models: ScriptedModel[] = await Promise.all(
    tags.map((tag, i) => startScriptedModel(scenario(`rpm ${tag}`, Array.from({ length: runsPerSession }, () => plannerRun(tag, blobsOf(i), 1)).flat()))),
  );
  const byTag = new Map(tags.map((t, i) => [t, models[i]!]));
  const router = await startRouter((body) => {
    const m = /\[rpm-\d-\d\d\]/.exec(body);
    return m ? byTag.get(m[0]) : undefined;
  });
  const scratch = tempDir("argus-bench-rpm-");
  const servers: RunningServer[] = [];
  const watches: Watch[] = [];
  try {
    const env = { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: "1", DATABASE_URL: options.databaseUrl, OPENAI_BASE_URL: router.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS };
    // One after the other: the first applies the migrations.
    for (let k = 0; k < options.instances; k++) servers.push(await startArgus({ dataDir: scratch.dir, instanceId: `rpm-${k}`, redisUrl: options.redisUrl, env }));

    const prepared = await Promise.all(
      tags.map(async (_, i) => {
        const server = servers[i % servers.length]!;
        const call = api(server.url);
        const created = await call("POST", "/api/sessions");
        if (created.status !== 201) throw new Error(`create session: ${created.status} ${created.text}`);
        const session = created.json as Session;
        const form = new FormData();
        form.set("file", new Blob([(await shapesPng(blobsOf(i), i)) as BlobPart]), "shapes.png");
        const uploaded = await call("POST", `/api/sessions/${session.id}/uploads`, { token: session.token, raw: form });
        if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
        const watch = await watchSession(server.url, session);
        watches.push(watch);
        return { i, call, session, media: (uploaded.json as { id: string }).id, watch };
      }),
    );

    const states: Record<string, number> = {};
    const durations: number[] = [];
    const t0 = now();
    await Promise.all(
      prepared.map(async (p) => {
        for (let r = 0; r < runsPerSession; r++) {
          const start = now();
          const posted = await p.call("POST", `/api/sessions/${p.session.id}/messages`, {
            token: p.session.token,
            body: { role: "user", content: `How many blobs are in shapes.png? ${tags[p.i]}`, media: [p.media] },
          });
          if (posted.status !== 202) throw new Error(`post message: ${posted.status} ${posted.text}`);
          const end = await p.watch.until(["finished", "error", "stopped", "interrupted"], 10 * 60_000, posted.json.runId as string);
          states[end.agentState] = (states[end.agentState] ?? 0) + 1;
          durations.push((now() - start) / 1000);
        }
      }),
    );
    const wallS = (now() - t0) / 1000;
    const runs = sessions * runsPerSession;
    return {
      instances: options.instances,
      runs,
      finished: states.finished ?? 0,
      states,
      wallS,
      runsPerMin: ((states.finished ?? 0) / wallS) * 60,
      runP50S: percentile(durations, 50),
      runP99S: percentile(durations, 99),
    };
  } finally {
    for (const w of watches) w.socket.disconnect();
    await Promise.all(servers.map((s) => s.kill()));
    await Promise.all(models.map((m) => m.close()));
    await new Promise<void>((resolve) => router.server.close(() => resolve()));
    scratch.cleanup();
  }
}
