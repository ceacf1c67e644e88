import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("vqa.json"));
});
afterAll(async () => {
  await world?.close();
});

describe("model-backed tools in the planner's Python", () => {
  it("vqa and suggestion reach the model through the bridge, with the pictures, and the kernel holds no key", async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    await uploadFile(world, session, await coinsPng(), "coins.png");
    const watch = await watchSession(world.server.url, session);
    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Roughly how many coins?" } });
    const end = await watch.until(["finished", "error"], 90_000, posted.json.runId);
    expect(end.agentState).toBe("finished");
    const observation = watch.messages.find((m) => m.role === "observation")!.content;
    expect(observation).toMatch(/vqa: About 24 coins\./);
    expect(observation).toMatch(/tip: 1\. Use a watershed\./);
    const vqaRequests = world.model.requests.filter((r) => r.model === "vqa");
    expect(vqaRequests).toHaveLength(2);
    expect(vqaRequests.every((r) => r.images === 1 && r.status === 200)).toBe(true);
  });
});
