import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { COUNT_COINS_CODE, coinImage } from "@/tests/helpers/coin-images";
import { eventually } from "@/tests/helpers/kernel-core";
import { scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

/**
 * "Now do it for all of them": the scripted conversation model takes
 * run_on_all_images, and a batch of the session's latest function starts over
 * every uploaded image; the agent says so in the chat.
 */
let world: AgentWorld;
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("run-on-all.json"));
});
afterAll(async () => {
  await world?.close();
});

describe("conversation action run_on_all_images", () => {
  it("starts a batch over the session's uploads with its latest function", async () => {
    const s = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    for (const n of [2, 5]) await uploadFile(world, s, new Uint8Array(await coinImage(n)), `coins-${n}.png`);
    const db = await openDatabase(world.server.database);
    await addFunctionVersion(db, { sessionId: s.id, name: "count_coins", code: "def count_coins(p):\n    return 0\n", test: "count_coins('x')", runId: null, testOutput: "", success: true, now: "2026-01-01T00:00:00Z" });
    await addFunctionVersion(db, { sessionId: s.id, name: "count_coins", code: COUNT_COINS_CODE, test: "count_coins('x')", runId: null, testOutput: "", success: true, now: "2026-01-01T00:00:01Z" });
    await db.close();

    const watch = await watchSession(world.server.url, s);
    const sent = await world.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content: "Great, now do it for all of them." } });
    expect(sent.status).toBe(202);
    const end = await watch.until(["finished", "error", "stopped"], 90_000, sent.json.runId);
    expect(end.agentState).toBe("finished");
    const said = watch.messages.filter((m) => m.role === "conversation").map((m) => m.content);
    expect(said.at(-1)).toMatch(/started a batch run of `count_coins` \(version 2\) on 2 images/);
    watch.socket.disconnect();

    let page: Record<string, any> = {};
    await eventually(async () => {
      const list = (await world.call("GET", `/api/sessions/${s.id}/batches`, { token: s.token })).json;
      page = list.batches[0] ?? {};
      return page.batch?.status === "done";
    }, 120_000);
    expect(page.batch).toMatchObject({ functionName: "count_coins", functionVersion: 2, total: 2, counts: { done: 2 } });
    const items = (await world.call("GET", `/api/sessions/${s.id}/batches/${page.batch.id}`, { token: s.token })).json.items;
    expect(items.map((i: any) => i.result.count)).toEqual([2, 5]);
  });
});
