import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioPath, startAgentWorld, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("ask-mid-run.json"));
});
afterAll(async () => {
  await world?.close();
});

async function askAndAnswer(answer: { role: "interaction_response" | "user"; content: string }) {
  world.model.reset();
  const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  const watch = await watchSession(world.server.url, session);
  const started = await world.call("POST", `/api/sessions/${session.id}/messages`, {
    token: session.token,
    body: { role: "user", content: "Count the coins, please." },
  });
  const runId = started.json.runId as string;
  await watch.until(["awaiting_user_input"], 90_000, runId);

  // The question is in the chat and in the transcript, and the run waits.
  const question = watch.messages.find((m) => m.role === "interaction")!;
  expect(question.content).toMatch(/^<interaction>.*<\/interaction>$/s);
  const payload = JSON.parse(question.content.replace(/^<interaction>|<\/interaction>$/g, ""));
  expect(payload).toMatchObject({ prompt: "Should I count with Hough circles or with a watershed?", options: ["Hough circles", "Watershed"] });
  const view = await world.call("GET", `/api/sessions/${session.id}`, { token: session.token });
  expect(view.json.state).toBe("awaiting_user_input");
  expect(view.json.pendingInteraction).toMatchObject({ seq: question.seq, runId, options: ["Hough circles", "Watershed"] });

  // A new request while the question is pending is taken as the answer, never a second run.
  const answered = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: answer });
  expect(answered.status).toBe(202);
  expect(answered.json).toEqual({ runId, resumed: true });
  const end = await watch.until(["finished", "error"], 90_000, runId);
  expect(end.agentState).toBe("finished");
  const roles = watch.messages.filter((m) => m.runId === runId).map((m) => m.role);
  expect(roles).toContain("interaction_response");
  // The variable defined before the pause was still there after it (the scripted
  // planner's later turns expect "still here: 150" in their request).
  const later = watch.messages.filter((m) => m.role === "observation").map((m) => m.content);
  expect(later.join("\n")).toMatch(/still here: 150/);
  const after = await world.call("GET", `/api/sessions/${session.id}`, { token: session.token });
  expect(after.json.pendingInteraction).toBeUndefined();
  watch.socket.disconnect();
}

describe("scenario: ask mid-run", () => {
  it("waits for the person, keeps the kernel alive, and resumes the same run with the answer", async () => {
    await askAndAnswer({ role: "interaction_response", content: JSON.stringify({ answer: "Watershed" }) });
  });

  it("takes plain text typed while the question is pending as the answer", async () => {
    await askAndAnswer({ role: "user", content: "Watershed, please" });
  });

  it("uses an answer that names its question only for that question: a late click never answers the next card", async () => {
    world.model.reset();
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const watch = await watchSession(world.server.url, session);
    const started = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: "Count the coins, please." } });
    const runId = started.json.runId as string;
    await watch.until(["awaiting_user_input"], 90_000, runId);
    const question = watch.messages.find((m) => m.role === "interaction")!;

    const stale = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "Watershed", answers: question.seq - 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error.message).toMatch(/already answered or is no longer waiting/);
    // A tool-review pick does not answer a question: it is refused by field, and the question still waits.
    const pick = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "", answers: question.seq, choice: { kind: "tool_review", function_name: "detect_circles", box_threshold: 0.5 } },
    });
    expect(pick.status).toBe(400);
    expect(pick.json.error).toMatchObject({ code: "bad_request:message", field: "choice.kind" });
    expect(pick.json.error.message).toMatch(/for a tool review, but the waiting question is not one/);
    // The question still waits, and an answer naming it is used.
    expect((await world.call("GET", `/api/sessions/${session.id}`, { token: session.token })).json.state).toBe("awaiting_user_input");
    const answered = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "Watershed", answers: question.seq },
    });
    expect(answered.json).toEqual({ runId, resumed: true });
    expect((await watch.until(["finished", "error"], 90_000, runId)).agentState).toBe("finished");
    // Once it is answered, the same click again is refused, not taken as a new message.
    const again = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "Watershed", answers: question.seq },
    });
    expect(again.status).toBe(409);
    watch.socket.disconnect();
  });

  it("refuses an interaction_response when nothing is pending", async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const res = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "interaction_response", content: "{}" },
    });
    expect(res.status).toBe(409);
    expect(res.json.error.message).toMatch(/no question waiting/);
  });
});
