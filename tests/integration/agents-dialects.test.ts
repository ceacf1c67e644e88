/**
 * The count-coins scenario end to end (HTTP, Socket.io, real kernels) with the scripted model
 * speaking like each real server, and with the text tool protocol. The run, its events and its
 * answer must be the same whichever way the model makes its calls, and so must the live drafts
 * the chat shows while the model writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import type { Dialect } from "@/scripted-model/server";
import { expectDraftsMatchLog, recordArrivals } from "@/tests/helpers/live-drafts";

interface Case {
  name: string;
  dialects: Dialect[];
  env?: Record<string, string>;
  /** Whether every request should carry `tools`, none should, or the first of each role only. */
  tools: "all" | "none" | "first";
  /** The reason auto gives in the server log when it moves the roles to text. */
  switched?: RegExp;
}

const cases: Case[] = [
  { name: "OpenAI and Ollama wire dialects, native calls", dialects: ["openai", "ollama"], tools: "all" },
  { name: "vLLM writing Hermes <tool_call> blocks in text", dialects: ["vllm-hermes"], tools: "first", switched: /wrote its tool call as text/ },
  { name: "a server that rejects tools (auto moves to text)", dialects: ["no-tools"], tools: "first", switched: /its endpoint rejected the request's tools/ },
  { name: "ARGUS_TOOL_PROTOCOL=text", dialects: ["openai"], env: { ARGUS_TOOL_PROTOCOL: "text" }, tools: "none" },
];

/** Collapses runs of the same role. */
const roleRuns = (roles: string[]) => roles.filter((r, i) => r !== roles[i - 1]);

describe.each(cases)("count coins: $name", (c) => {
  let world: AgentWorld;
  beforeAll(async () => {
    world = await startAgentWorld(scenarioPath("count-coins.json"), c.env ?? {}, { dialect: c.dialects[0] });
  });
  afterAll(async () => {
    await world?.close();
  });

  it.each(c.dialects)("%s: plans, codes and answers 24, with the same events as native calls", async (dialect) => {
    const scenario = world.model.scenario;
    world.model.load({ ...scenario, dialect });
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const upload = await uploadFile(world, session, await coinsPng(), "coins.png");
    const watch = await watchSession(world.server.url, session);
    const arrivals = recordArrivals(watch.socket);
    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [upload.id] },
    });
    expect(posted.status).toBe(202);
    const end = await watch.until(["finished", "error", "stopped"], 90_000, posted.json.runId as string);
    expect(end.agentState, JSON.stringify(watch.messages.filter((m) => m.role === "error_observation"))).toBe("finished");

    const mine = watch.messages.filter((m) => m.runId === posted.json.runId);
    expect(roleRuns(mine.map((m) => m.role))).toEqual(["user", "conversation", "planner", "observation", "planner", "coder", "observation", "coder", "conversation"]);
    expect(mine.at(-1)!.content).toMatch(/24 coins/);
    expect(mine.filter((m) => m.role === "coder").at(-1)!.content).toMatch(/<final_code>[\s\S]*def count_coins[\s\S]*<\/final_code>/);

    // How the calls were made: in the request log.
    const answered = world.model.requests.filter((r) => r.status === 200);
    const withTools = answered.map((r) => (r.tools?.length ?? 0) > 0);
    if (c.tools === "all") expect(withTools.every(Boolean)).toBe(true);
    if (c.tools === "none") expect(withTools.some(Boolean)).toBe(false);
    if (c.tools === "first") {
      // Each role's first request offered tools; once moved, none did.
      for (const role of ["conversation", "planner", "coder"]) {
        const mineRole = world.model.requests.filter((r) => r.model === role);
        expect(mineRole.length, role).toBeGreaterThan(1);
        expect((mineRole[0]!.tools?.length ?? 0) > 0, role).toBe(true);
        expect(mineRole.slice(1).some((r) => (r.tools?.length ?? 0) > 0 && r.status === 200), role).toBe(false);
      }
    }
    if (c.tools !== "all") {
      const planner = world.model.requests.find((r) => r.model === "planner" && r.status === 200 && (r.tools?.length ?? 0) === 0)!;
      expect(JSON.stringify(planner.messages[0])).toContain("## How to answer");
    }

    // Auto says so once per model in the server log, and only when it switched.
    const lines = world.server.output().split("\n").filter((l) => l.includes("now uses the text tool protocol"));
    if (c.switched) {
      expect(lines.map((l) => /\[model\] (\w+) \(/.exec(l)?.[1]).sort()).toEqual(["coder", "conversation", "planner"]);
      for (const line of lines) expect(line).toMatch(c.switched);
    } else {
      expect(lines).toEqual([]);
    }
    // Live drafts read the same fields whichever way the model writes its calls.
    await expectDraftsMatchLog(world, session, posted.json.runId as string, arrivals, watch, { inPieces: dialect !== "ollama" });

    // Health's models follow the last calls: the text protocol is a working but degraded way.
    const health = await world.call("GET", "/api/health");
    expect(health.json.models.planner).toBe(c.tools === "all" ? "ok" : "degraded");
    watch.socket.disconnect();
  });
});
