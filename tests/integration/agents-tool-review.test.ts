import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("tool-review.json"));
});
afterAll(async () => {
  await world?.close();
});

describe("scenario: get_tool_for_task with tool review", () => {
  it("shows the person every candidate's boxes; their pick and threshold drive the planner's next cell", async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    await uploadFile(world, session, await coinsPng(), "coins.png");
    const watch = await watchSession(world.server.url, session);
    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "count the coins" } });
    const runId = posted.json.runId as string;
    await watch.until(["awaiting_user_input"], 120_000, runId);

    const review = watch.messages.find((m) => m.role === "interaction")!;
    const payload = JSON.parse(review.content.replace(/^<interaction>|<\/interaction>$/g, "")) as {
      kind: string;
      payload: { image: string; width: number; height: number; candidates: { function_name: string; detections: { bbox: number[]; score: number }[] }[] };
    };
    expect(payload.kind).toBe("tool_review");
    expect(payload.payload.image).toMatch(/^\/api\/files\//);
    expect(payload.payload.width).toBe(384);
    const names = payload.payload.candidates.map((c) => c.function_name);
    expect(names).toEqual(expect.arrayContaining(["detect_circles", "count_objects"]));
    expect(names).not.toContain("vqa"); // needs a prompt: reported, not offered
    const circles = payload.payload.candidates.find((c) => c.function_name === "detect_circles")!;
    expect(circles.detections.length).toBeGreaterThanOrEqual(20);
    expect(circles.detections[0]!.bbox).toHaveLength(4);

    // The card's pick travels as typed fields; the answer's text form is written from them.
    const answer = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "", answers: review.seq, choice: { kind: "tool_review", function_name: "detect_circles", box_threshold: 0.5 } },
    });
    expect(answer.json).toEqual({ runId, resumed: true });
    const end = await watch.until(["finished", "error"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((m) => m.role === "error_observation"))).toBe("finished");
    const observations = watch.messages.filter((m) => m.runId === runId && m.role === "observation").map((m) => m.content);
    expect(observations[0]).toMatch(/Use detect_circles with box_threshold=0\.50 \(you chose\)/);
    expect(observations[1]).toMatch(/detect_circles 0\.5 2\d/);
    const given = watch.messages.find((m) => m.role === "interaction_response")!;
    expect(given.content).toBe('{"function_name":"detect_circles","box_threshold":0.5}');
    expect(given.item).toEqual({ type: "answer", text: given.content, media: [], choice: { kind: "tool_review", function_name: "detect_circles", box_threshold: 0.5 } });
    watch.socket.disconnect();
  });
});
