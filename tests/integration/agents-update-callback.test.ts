import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSession } from "@/lib/engines/db/sessions";
import { loadScenario, startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { ROLE_MODELS, scenarioPath } from "@/tests/helpers/agent-run";
import { eventually, startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

let model: ScriptedModel;
let k: KernelCore;
beforeAll(async () => {
  model = await startScriptedModel(loadScenario(scenarioPath("kernel-dies.json")));
  k = await startKernelCore({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS });
});
afterAll(async () => {
  await k?.close();
  await model?.close();
});

describe("update_callback", () => {
  it("hands every AgentMessage of a run to each subscriber, in order, as the socket sees them", async () => {
    const got: { sessionId: string; message: StreamedMessage }[] = [];
    const unsubscribe = k.core.runs.subscribe((sessionId, message) => got.push({ sessionId, message }));
    const s = await k.newSession();
    const { runId } = await k.core.runs.post((await getSession(k.core.db, s.id))!, { role: "user", content: "go" });
    await eventually(() => !k.core.runs.isActive(s.id), 60_000);
    unsubscribe();

    const mine = got.filter((g) => g.sessionId === s.id).map((g) => g.message);
    expect(mine.length).toBeGreaterThan(5);
    expect(mine.every((m) => m.runId === runId)).toBe(true);
    const seqs = mine.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Exactly the messages the transcript holds, nothing more, nothing less.
    expect(mine).toEqual(await k.core.events.messagesAfter(s.id, 0));
    expect(mine[0]).toMatchObject({ role: "user", content: "go" });
    expect(mine.at(-1)).toMatchObject({ role: "conversation" });
  });
});
