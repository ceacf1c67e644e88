import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadToolCatalogue } from "@/lib/engines/kernels/tool-catalogue";
import { PYTHON_DIR } from "@/lib/server/argus-core";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("count-coins.json"));
});
afterAll(async () => {
  await world?.close();
});

/** Collapses runs of the same role, to compare with vision-agent's callback order. */
const roleRuns = (roles: string[]) => roles.filter((r, i) => r !== roles[i - 1]);

describe("scenario: count coins (HTTP + Socket.io + real kernels + scripted model)", () => {
  it("plans in the kernel, looks at its overlay, writes tested code, and answers 24", async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const upload = await uploadFile(world, session, await coinsPng(), "coins.png");
    const watch = await watchSession(world.server.url, session);

    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [upload.id] },
    });
    expect(posted.status).toBe(202);
    const runId = posted.json.runId as string;
    const end = await watch.until(["finished", "error", "stopped"], 90_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((m) => m.role === "error_observation"))).toBe("finished");

    const mine = watch.messages.filter((m) => m.runId === runId);
    const seqs = mine.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The order of vision-agent's callbacks: conversation, planner turns with
    // their observations, the plan, the coder and its test output, conversation.
    expect(roleRuns(mine.map((m) => m.role))).toEqual([
      "user",
      "conversation",
      "planner",
      "observation",
      "planner",
      "coder",
      "observation",
      "coder",
      "conversation",
    ]);
    const observation = mine.find((m) => m.role === "observation")!;
    expect(observation.content).toMatch(/24 coins/);
    expect(observation.media?.[0]).toMatch(/^\/api\/files\//);
    expect(mine.at(-1)!.content).toMatch(/24 coins/);
    const finalCode = mine.filter((m) => m.role === "coder").at(-1)!;
    expect(finalCode.content).toMatch(/<final_code>[\s\S]*def count_coins[\s\S]*<\/final_code>/);
    const testOutput = mine.filter((m) => m.role === "observation").at(-1)!;
    expect(testOutput.content).toMatch(/24/);

    // The planner's second request really carried the overlay it viewed.
    const plannerRequests = world.model.requests.filter((r) => r.model === "planner");
    // Its first request names every tool of the kernel package's catalogue.
    const catalogue = await loadToolCatalogue("/usr/bin/python3", PYTHON_DIR);
    expect(catalogue.length).toBeGreaterThanOrEqual(20);
    const firstSystem = JSON.stringify(plannerRequests[0]!.messages.filter((m) => m.role === "system"));
    for (const tool of catalogue) expect(firstSystem, tool.name).toContain(`${tool.name}(`);
    expect(firstSystem).toContain("get_tool_for_task(task, images)");
    expect(plannerRequests[1]!.images).toBeGreaterThanOrEqual(1);
    expect(plannerRequests[1]!.status).toBe(200);

    // The overlay is a real PNG the session can fetch.
    const img = await fetch(world.server.url + observation.media![0]!, { headers: { authorization: `Bearer ${session.token}` } });
    expect(img.headers.get("content-type")).toBe("image/png");

    // The transcript over HTTP matches the stream, and the run finished.
    const view = await world.call("GET", `/api/sessions/${session.id}`, { token: session.token });
    expect(view.json.state).toBe("finished");
    expect(view.json.title).toBe("How many coins are on the table?");
    expect(view.json.messages.map((m: { seq: number }) => m.seq)).toEqual(watch.messages.map((m) => m.seq));

    // The notebook has the planner's cell (not the coder's isolated test).
    const nb = await world.call("GET", `/api/sessions/${session.id}/notebook`, { token: session.token });
    expect(nb.json.cells.map((c: { source: string }) => c.source).join("\n")).toMatch(/watershed/);
    expect(nb.json.cells.map((c: { source: string }) => c.source).join("\n")).not.toMatch(/count_coins\('coins.png'\)/);

    // Scenario "edit code": a follow-up runs the coder alone, on the last code.
    const edit = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "Can the function also return each coin's area?" },
    });
    expect(edit.status).toBe(202);
    const editEnd = await watch.until(["finished", "error", "stopped"], 90_000, edit.json.runId);
    expect(editEnd.agentState).toBe("finished");
    const editRoles = watch.messages.filter((m) => m.runId === edit.json.runId).map((m) => m.role);
    expect(editRoles).not.toContain("planner");
    expect(roleRuns(editRoles)).toEqual(["user", "conversation", "coder", "observation", "coder", "conversation"]);
    expect(Object.values(world.model.remaining()).every((n) => n === 0)).toBe(true);
    watch.socket.disconnect();
  });
});
