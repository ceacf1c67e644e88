import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadScenario, startScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS, scenarioPath, watchSession } from "@/tests/helpers/agent-run";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-restart-");
afterAll(scratch.cleanup);

describe("SIGTERM to the server mid-run, then start again", () => {
  // Two full server starts (each with its jupyter-server) and a run: more than the default budget on a busy machine.
  it("keeps the transcript, marks the run interrupted in the chat, and the next message works", { timeout: 180_000 }, async () => {
    const model = await startScriptedModel(loadScenario(path.resolve(scenarioPath("slow-run.json"))));
    const env = { ARGUS_JUPYTER: "auto", ARGUS_KERNEL_POOL: "1", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS };
    try {
      const first = await startArgus({ dataDir: scratch.dir, env });
      const call = api(first.url);
      const session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
      const watch = await watchSession(first.url, session);
      const posted = await call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "take your time" } });
      const runId = posted.json.runId as string;
      for (let i = 0; i < 400 && !watch.messages.some((m) => m.role === "observation"); i++) await new Promise((r) => setTimeout(r, 25));
      const before = watch.messages.map((m) => m.seq);
      watch.socket.disconnect();
      expect(await first.kill("SIGTERM")).toBe(0);

      const second = await startArgus({ dataDir: scratch.dir, env });
      try {
        const call2 = api(second.url);
        const view = await call2("GET", `/api/sessions/${session.id}`, { token: session.token });
        expect(view.json.state).toBe("interrupted");
        const seqs = view.json.messages.map((m: { seq: number }) => m.seq);
        for (const seq of before) expect(seqs).toContain(seq);
        const note = view.json.messages.filter((m: { role: string; runId: string }) => m.role === "error_observation" && m.runId === runId);
        expect(note.map((m: { content: string }) => m.content).join()).toMatch(/interrupted because the Argus server stopped/);

        const watch2 = await watchSession(second.url, session);
        const next = await call2("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "again please" } });
        expect(next.status).toBe(202);
        const end = await watch2.until(["finished", "error", "stopped"], 90_000, next.json.runId);
        expect(["finished", "error"]).toContain(end.agentState);
        expect(watch2.messages.some((m) => m.runId === next.json.runId && m.role === "conversation")).toBe(true);
        watch2.socket.disconnect();
      } finally {
        await second.kill();
      }
    } finally {
      await model.close();
    }
  });
});
