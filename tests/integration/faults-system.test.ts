import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classify, listProcesses, selectOwned } from "@/bench/lib/proc-stats";
import { scenarioPath, startAgentWorld, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

const worlds: AgentWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
});

/** PIDs of this server's processes of one kind (kernel python or jupyter-server). */
function pidsOf(world: AgentWorld, kind: "kernel" | "jupyter"): number[] {
  const owned = selectOwned(listProcesses(), world.server.proc.pid ?? null, null);
  return owned.filter((p) => classify(p.argv) === kind && path0IsPython(p.argv)).map((p) => p.pid);
}
const path0IsPython = (argv: string[]) => /python[\d.]*$/.test(argv[0] ?? "");

/** Whether a file of this name exists anywhere below `dir` (the session's workspace is one level or two down). */
function hasFile(dir: string, name: string): boolean {
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).some((entry) => path.basename(entry) === name);
  } catch {
    return false;
  }
}

async function midCell(killWhat: "kernel" | "jupyter") {
  // No pool: the session's kernel is the only one alive when the kill comes.
  const world = await startAgentWorld(scenarioPath("kill-mid-cell.json"), { ARGUS_KERNEL_POOL: "0" });
  worlds.push(world);
  const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  const watch = await watchSession(world.server.url, session);
  const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "take your time" } });
  const runId = posted.json.runId as string;
  // The first cell marks its start with a file, then sleeps 8 s: kill once the mark is there,
  // so the kill lands mid-cell however slow the machine is (a fixed wait did not, under load).
  const sessions = path.join(world.server.dataDir, "sessions");
  for (let i = 0; i < 2400 && !hasFile(sessions, "cell-1-running"); i++) await new Promise((r) => setTimeout(r, 25));
  expect(hasFile(sessions, "cell-1-running")).toBe(true);
  const victims = pidsOf(world, killWhat);
  expect(victims.length).toBeGreaterThan(0);
  for (const pid of victims) process.kill(pid, "SIGKILL");
  const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
  return { world, session, watch, runId, end };
}

describe("faults while a run is live", () => {
  it("kill -9 of the session's kernel mid-cell: the observation says so, a new kernel carries the run on", { timeout: 180_000 }, async () => {
    const { world, session, watch, runId, end } = await midCell("kernel");
    expect(end.agentState, watch.messages.filter((m) => m.role === "error_observation").map((m) => m.content).join("\n")).toBe("finished");
    const observations = watch.messages.filter((m) => m.runId === runId && m.role === "observation").map((m) => m.content);
    expect(observations[0]).toMatch(/KernelDied|died/);
    expect(observations.slice(1).join("\n")).toMatch(/step 2 done/);
    // Nothing already written was lost.
    const view = await world.call("GET", `/api/sessions/${session.id}`, { token: session.token });
    expect(view.json.messages.length).toBe(watch.messages.length);
    watch.socket.disconnect();
  });

  it("kill -9 of jupyter-server mid-run: it comes back, the run ends readably, and the session stays usable", { timeout: 180_000 }, async () => {
    const { world, session, watch, runId, end } = await midCell("jupyter");
    expect(["finished", "error"]).toContain(end.agentState);
    const said = watch.messages.filter((m) => m.runId === runId).map((m) => m.content).join("\n");
    expect(said).toMatch(/died|lost|Jupyter|restart/i);
    expect((await world.call("GET", "/api/health")).json).toMatchObject({ ok: true, jupyter: "up" });
    // Another message works on the recovered server (the scenario's last reply).
    world.model.load({ name: "after", turns: [{ model: "conversation", toolCalls: [{ name: "reply", args: { response: "Still here." } }] }] });
    const next = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "still there?" } });
    expect(next.status).toBe(202);
    expect((await watch.until(["finished", "error"], 60_000, next.json.runId)).agentState).toBe("finished");
    watch.socket.disconnect();
  });
});
