/**
 * The acceptance scenario (count the coins) through JUPYTER_URL with the workspace moved through
 * the kernel: the Jupyter server's root is not Argus's data directory, so the upload reaches the
 * planner's kernel, and the coder's isolated one, only over the kernel channel.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "@/scripted-model/server";
import { coinsPng, ROLE_MODELS, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { startDeployedJupyter, type DeployedJupyter } from "@/tests/helpers/jupyter-host";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-agents-shared-jupyter-");
let theirs: DeployedJupyter;
let world: AgentWorld;

beforeAll(async () => {
  theirs = await startDeployedJupyter(scratch.dir);
  world = await startAgentWorld(scenarioPath("count-coins.json"), {
    JUPYTER_URL: theirs.url,
    JUPYTER_TOKEN: theirs.token,
    ARGUS_KERNEL_NAME: "argus-python",
    ARGUS_WORKSPACE_TRANSPORT: "kernel",
  });
}, 120_000);
afterAll(async () => {
  await world?.close();
  await theirs?.server.stop();
  scratch.cleanup();
});

describe("count coins on a shared Jupyter, files through the kernel", () => {
  it("reads the upload in the remote kernel, shows the overlay, tests the code, answers 24", { timeout: 180_000 }, async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const upload = await uploadFile(world, session, await coinsPng(), "coins.png");
    // Under transport `kernel` the server keeps the upload in its blob store only.
    expect(readdirSync(path.join(world.server.dataDir, "sessions", session.id))).toEqual([]);

    const watch = await watchSession(world.server.url, session);
    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [upload.id] },
    });
    expect(posted.status).toBe(202);
    const runId = posted.json.runId as string;
    const end = await watch.until(["finished", "error", "stopped"], 150_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((m) => m.role === "error_observation"))).toBe("finished");

    const mine = watch.messages.filter((m) => m.runId === runId);
    const observation = mine.find((m) => m.role === "observation")!;
    expect(observation.content).toMatch(/24 coins/);
    // The overlay the planner viewed is one of the session's files, served like any other.
    expect(observation.media?.[0]).toMatch(/^\/api\/files\//);
    const overlay = await fetch(world.server.url + observation.media![0]!, { headers: { authorization: `Bearer ${session.token}` } });
    expect(overlay.status).toBe(200);
    expect(overlay.headers.get("content-type")).toBe("image/png");
    // The coder's test ran in its own kernel, which got the upload through the kernel channel too.
    expect(mine.filter((m) => m.role === "observation").at(-1)!.content).toMatch(/24/);
    expect(mine.at(-1)!.content).toMatch(/24 coins/);

    // The upload is in the session's workspace on the kernel host, and still not on Argus's disk.
    expect(existsSync(path.join(theirs.rootDir, "argus-workspaces", session.id, "coins.png"))).toBe(true);
    expect(readdirSync(path.join(world.server.dataDir, "sessions", session.id))).toEqual([]);
    watch.socket.disconnect();
  });
});

/** One planner run that executes `code` and, when `expect` is given, requires the next planner request to contain it. */
function plannerRun(code: string, expect?: string) {
  return [
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "On it.", action: "generate_or_edit_vision_code" } }] },
    { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "Run it.", code } }] },
    { model: "planner", ...(expect ? { expect: { contains: expect } } : {}), toolCalls: [{ name: "finalize_plan", args: { thinking: "Done." } }] },
    { model: "planner", toolCalls: [{ name: "submit_plan", args: { plan: "p", instructions: ["i"], code: "def f(p):\n    return 1" } }] },
    { model: "coder", toolCalls: [{ name: "write_code", args: { code: "def f(p):\n    return 1" } }] },
    { model: "coder", toolCalls: [{ name: "write_test", args: { test: "print(f('x'))" } }] },
    { model: "conversation", toolCalls: [{ name: "reply", args: { response: "Done." } }] },
  ];
}

describe("kill -9 of Argus on a shared Jupyter", () => {
  it("the restarted server's next message runs in the same notebook, variables intact, with no reset note", { timeout: 240_000 }, async () => {
    const model = await startScriptedModel({
      name: "notebook across a restart",
      turns: [...plannerRun("kept = 41\nprint('set')"), ...plannerRun("print('kept', kept + 1)", "kept 42")],
    });
    const dataDir = path.join(scratch.dir, "restart-data");
    const env = {
      JUPYTER_URL: theirs.url,
      JUPYTER_TOKEN: theirs.token,
      ARGUS_KERNEL_NAME: "argus-python",
      ARGUS_WORKSPACE_TRANSPORT: "kernel",
      ARGUS_KERNEL_POOL: "0",
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "scripted",
      ...ROLE_MODELS,
    };
    try {
      const first = await startArgus({ dataDir, env });
      const session = (await api(first.url)("POST", "/api/sessions")).json as { id: string; token: string };
      const watch = await watchSession(first.url, session);
      const one = await api(first.url)("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "remember 41" } });
      expect((await watch.until(["finished", "error", "stopped"], 150_000, one.json.runId)).agentState).toBe("finished");
      watch.socket.disconnect();
      await first.kill("SIGKILL");

      const second = await startArgus({ dataDir, env });
      try {
        const watch2 = await watchSession(second.url, session);
        const two = await api(second.url)("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "what was it?" } });
        const end = await watch2.until(["finished", "error", "stopped"], 150_000, two.json.runId);
        expect(end.agentState, JSON.stringify(watch2.messages.filter((m) => m.role === "error_observation"))).toBe("finished");
        expect(watch2.messages.some((m) => m.runId === two.json.runId && m.role === "observation" && /kept 42/.test(m.content))).toBe(true);
        const view = await api(second.url)("GET", `/api/sessions/${session.id}`, { token: session.token });
        expect(view.json.messages.map((m: { content: string }) => m.content).join("\n")).not.toMatch(/notebook was reset/);
        watch2.socket.disconnect();
      } finally {
        await second.kill();
      }
    } finally {
      await model.close();
    }
  });
});
