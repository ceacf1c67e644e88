import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioPath, startAgentWorld, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

/**
 * Issue #29: a chat chooses its model per role from what the endpoint lists, remembered per
 * session, with no key in the browser. The scripted model requires a key (on /v1/models too), so
 * the list comes only from a server that asks with its own key; what the scripted model receives
 * shows which model each session's run used.
 */
const KEY = "sk-scripted-secret-0123456789";

let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("chosen-models.json"), { ARGUS_JUPYTER: "off", OPENAI_API_KEY: KEY }, { requireKey: KEY });
});
afterAll(async () => {
  await world?.close();
});

async function runIn(session: { id: string; token: string }, text: string): Promise<string> {
  const watch = await watchSession(world.server.url, session);
  try {
    const started = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: text } });
    expect(started.status, started.text).toBe(202);
    const end = await watch.until(["finished", "error"], 90_000, started.json.runId as string);
    expect(end.agentState).toBe("finished");
    return watch.messages.filter((m) => m.role === "conversation").map((m) => m.content).join("\n");
  } finally {
    watch.socket.disconnect();
  }
}

describe("a chat's models", () => {
  it("lists the endpoint's models through the server, never its key", async () => {
    const listed = await world.call("GET", "/api/models");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.models).toEqual(["conversation", "conversation-large"]);
    expect(listed.json.roles).toContainEqual({ role: "planner", serverModel: "planner" });
    expect(listed.text).not.toContain(KEY);
  });

  it("sends a session's runs to the model it chose, remembers the choice, and leaves other sessions on the server's", async () => {
    const chosen = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const other = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const saved = await world.call("PATCH", `/api/sessions/${chosen.id}`, { token: chosen.token, body: { settings: { models: { conversation: "conversation-large" } } } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.settings.models).toEqual({ conversation: "conversation-large" });

    world.model.reset();
    expect(await runIn(chosen, "hello from the chosen chat")).toContain("Answered by the model this chat chose.");
    expect(await runIn(other, "hello from the other chat")).toContain("Answered by the server's model.");
    const asked = world.model.requests.filter((r) => r.status === 200).map((r) => r.model);
    expect(asked).toEqual(["conversation-large", "conversation"]);

    // Remembered in the database: the transcript view reads it back.
    const view = await world.call("GET", `/api/sessions/${chosen.id}`, { token: chosen.token });
    expect(view.json.settings.models).toEqual({ conversation: "conversation-large" });
  });

  it("refuses a role that does not exist or a name that is not one, in words", async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const badRole = await world.call("PATCH", `/api/sessions/${session.id}`, { token: session.token, body: { settings: { models: { wizard: "x" } } } });
    expect(badRole.status).toBe(400);
    const badName = await world.call("PATCH", `/api/sessions/${session.id}`, { token: session.token, body: { settings: { models: { planner: "a\nb" } } } });
    expect(badName.status).toBe(400);
    expect(badName.json.error.message).toMatch(/model name/);
  });
});
