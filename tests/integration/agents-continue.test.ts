import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { startAgentWorld, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

// One server for both runs (they take the scenario's turns in order): a server start with its Jupyter is the slow part.
let shared: Promise<AgentWorld> | null = null;
afterAll(async () => {
  await (await shared)?.close();
});

async function world() {
  // A token budget the second run's two million-token vqa answers stay under (see "Retry after the kernel died").
  shared ??= startAgentWorld(path.join(import.meta.dirname, "continue-after-faults.json"), { ARGUS_RUN_MAX_TOKENS: "10000000" });
  const w = await shared;
  const session = (await w.call("POST", "/api/sessions")).json as { id: string; token: string };
  const watch = await watchSession(w.server.url, session);
  const post = async (body: Record<string, unknown>) => {
    const res = await w.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", ...body } });
    return { status: res.status, json: res.json };
  };
  return { w, session, watch, post };
}

const ofKind = (messages: readonly StreamedMessage[], type: string) => messages.filter((m) => m.item.type === type);
const texts = (messages: readonly StreamedMessage[]) => messages.map((m) => ("text" in m.item ? m.item.text : "code" in m.item ? m.item.code : m.item.type === "cell_output" ? m.item.output.stdout : ""));

describe("Retry after a model fault", () => {
  it("continues the same run from the failed step: the message is not posted again, the finished cell stays once, the notebook is kept", { timeout: 240_000 }, async () => {
    const { watch, post, w } = await world();
    const started = await post({ content: "add one to x" });
    expect(started.status).toBe(202);
    const runId = started.json.runId as string;
    expect((await watch.until(["error", "finished"], 120_000, runId)).agentState).toBe("error");
    expect(texts(ofKind(watch.messages, "error")).join()).toMatch(/API key/);
    const cellsBefore = ofKind(watch.messages, "cell").length;
    expect(cellsBefore).toBe(1);

    const retried = await post({ content: "", redo: { kind: "continue", runId } });
    expect(retried.status).toBe(202);
    expect(retried.json.runId).toBe(runId);
    expect((await watch.until(["finished"], 120_000, runId)).agentState).toBe("finished");

    // One person's message in the whole chat, and every event under the one run.
    expect(ofKind(watch.messages, "user")).toHaveLength(1);
    expect(new Set(watch.messages.map((m) => m.runId))).toEqual(new Set([runId]));
    // The finished cell is in the transcript once; the failed step's cell ran after the continue, in the same kernel (x kept).
    const cells = texts(ofKind(watch.messages, "cell"));
    expect(cells.filter((c) => c.includes("x = 41"))).toHaveLength(1);
    expect(cells.filter((c) => c.includes("x + 1"))).toHaveLength(1);
    expect(texts(ofKind(watch.messages, "cell_output")).join("\n")).toMatch(/x plus one is 42/);
    expect(texts(ofKind(watch.messages, "redo"))).toEqual([expect.stringMatching(/Continuing/)]);
    expect(ofKind(watch.messages, "redo").some((m) => m.item.type === "redo" && m.item.kind === "notebook_rebuilt")).toBe(false);
    // The planner was asked once more (the failed step), not from the start: one conversation reply before, one report after.
    expect(w.model.requests.filter((r) => r.model === "conversation")).toHaveLength(2);
    expect(w.model.requests.filter((r) => r.model === "planner")).toHaveLength(5); // a cell, the fault, the next cell, finalize, the summary
    expect(texts(ofKind(watch.messages, "agent_message")).at(-1)).toBe("The answer is 42.");

    // A finished run is not continued again.
    const again = await post({ content: "", redo: { kind: "continue", runId } });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/Regenerate/);
  });
});

describe("Retry after the kernel died", () => {
  it("runs the recorded cells again in the new kernel (said in the chat), then continues", { timeout: 240_000 }, async () => {
    const { watch, post } = await world();
    const runId = (await post({ content: "add one to x" })).json.runId as string;
    expect((await watch.until(["error", "finished"], 120_000, runId)).agentState).toBe("error");

    expect((await post({ content: "", redo: { kind: "continue", runId } })).status).toBe(202);
    const end = await watch.until(["finished"], 120_000, runId);
    expect(end.agentState).toBe("finished");
    // The re-run cell asked its model-backed tool (vqa) again: the run's tokens count both answers
    // (a million each in the scenario; everything else the run spent is far less than a million).
    expect(end.tokens.input).toBeGreaterThanOrEqual(2_000_000);

    const redo = ofKind(watch.messages, "redo").map((m) => m.item);
    expect(redo).toContainEqual(expect.objectContaining({ kind: "notebook_rebuilt", text: expect.stringMatching(/1 cell recorded in this chat was run again/) }));
    // x came back from the re-run cell; the cell that killed the kernel was not run again.
    expect(texts(ofKind(watch.messages, "cell_output")).join("\n")).toMatch(/x plus one is 42/);
    expect(ofKind(watch.messages, "user")).toHaveLength(1);
  });
});

describe("Stop, then Continue", () => {
  it("goes on with the stopped run: the cell it was stopped in runs again, nothing before it is redone", { timeout: 240_000 }, async () => {
    const { watch, post, w, session } = await world();
    const runId = (await post({ content: "slow please" })).json.runId as string;
    const cellShown = () => watch.messages.some((m) => m.runId === runId && m.item.type === "cell");
    for (let i = 0; i < 2400 && !cellShown(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(cellShown()).toBe(true);
    expect((await w.call("POST", `/api/sessions/${session.id}/cancel`, { token: session.token })).status).toBe(202);
    expect((await watch.until(["stopped", "finished", "error"], 120_000, runId)).agentState).toBe("stopped");
    const plannerCalls = w.model.requests.filter((r) => r.model === "planner").length;

    expect((await post({ content: "", redo: { kind: "continue", runId } })).status).toBe(202);
    expect((await watch.until(["finished"], 120_000, runId)).agentState).toBe("finished");
    const ofRun = watch.messages.filter((m) => m.runId === runId);
    // The stopped cell was carried out again (its output is there), not asked of the model again.
    expect(texts(ofKind(ofRun, "cell_output")).join("\n")).toMatch(/slow cell done/);
    expect(texts(ofKind(ofRun, "cell")).filter((c) => c.includes("time.sleep(20)"))).toHaveLength(1);
    expect(w.model.requests.filter((r) => r.model === "planner").length - plannerCalls).toBe(2); // finalize, the summary
    expect(texts(ofKind(ofRun, "agent_message"))).toEqual(["Taking my time.", "Done after the stop."]);
    expect(ofKind(ofRun, "user")).toHaveLength(1);
  });
});
