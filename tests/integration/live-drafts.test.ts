/**
 * Live drafts through the real server: the count-coins run with real kernels and the scripted
 * model over HTTP, watched by a Socket.io client that records `draft`, `message` and `state` in
 * the order they arrive. Drafts must come before their step's persisted event, grow, end with
 * exactly what the step persisted, and change nothing in the log.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStep } from "@/lib/client/message-content";
import { eventsAfter } from "@/lib/db/events";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { isAction, type ActionEvent } from "@/lib/protocol/events";
import type { DraftWire, SyncAck } from "@/lib/protocol/socket";
import { DraftWireSchema } from "@/lib/protocol/socket";
import { fromDict } from "@/lib/runtime/serialization";
import type { Dialect } from "@/scripted-model/server";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

type Arrival = { kind: "draft"; draft: DraftWire } | { kind: "message"; message: StreamedMessage };

/** The field a step's drafts grow: what the agent is writing. */
const written = (d: DraftWire) => d.view.code ?? d.view.test ?? d.view.response ?? d.view.plan ?? d.view.question ?? d.view.thinking ?? "";

/** However the model writes its calls, the drafts read the same fields. */
const cases: { name: string; dialect: Dialect; env: Record<string, string> }[] = [
  { name: "native tool calls (partial JSON arguments)", dialect: "openai", env: {} },
  { name: "the text protocol (tags holding JSON)", dialect: "openai", env: { ARGUS_TOOL_PROTOCOL: "text" } },
  { name: "Hermes <tool_call> blocks in text", dialect: "vllm-hermes", env: { ARGUS_TOOL_PROTOCOL: "text" } },
];

describe.each(cases)("live drafts with $name (HTTP + Socket.io + real kernels + scripted model)", ({ dialect, env }) => {
  let world: AgentWorld;
  beforeAll(async () => {
    world = await startAgentWorld(scenarioPath("count-coins.json"), env, { dialect });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("stream each step before its persisted event, grow, end as persisted, and leave the log as it was", async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const upload = await uploadFile(world, session, coinsPng(), "coins.png");
    const watch = await watchSession(world.server.url, session);
    const arrivals: Arrival[] = [];
    watch.socket.on("draft", (draft: DraftWire) => arrivals.push({ kind: "draft", draft }));
    watch.socket.on("message", (message: StreamedMessage) => arrivals.push({ kind: "message", message }));

    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [upload.id] },
    });
    const runId = posted.json.runId as string;
    const end = await watch.until(["finished", "error", "stopped"], 90_000, runId);
    expect(end.agentState).toBe("finished");

    const drafts = arrivals.flatMap((a) => (a.kind === "draft" ? [a.draft] : []));
    expect(drafts.length).toBeGreaterThan(0);
    for (const d of drafts) {
      expect(DraftWireSchema.parse(d)).toEqual(d);
      expect(d.runId).toBe(runId);
    }

    // One action event per step, exactly as without drafts: the k-th agent action is step k.
    const db = new Database(path.join(world.server.dataDir, "argus.db"), { readonly: true });
    const events = eventsAfter(db, session.id, 0).map((row) => fromDict(JSON.parse(row.body)));
    db.close();
    const actions = events.filter((e): e is ActionEvent => isAction(e) && e.runId === runId && e.source === "agent");
    expect(actions.map((e) => `${e.agent}:${e.action}`)).toEqual([
      "conversation:message",
      "conversation:delegate",
      "coder:delegate",
      "planner:run_ipython",
      "planner:finish",
      "coder:run_ipython",
      "coder:finish",
      "conversation:message",
      "conversation:finish",
    ]);
    expect(JSON.stringify(events)).not.toContain('"draft"');

    const steps = [...new Set(drafts.map((d) => d.step))];
    // Every step that called the model streamed: the first reply, the planner's cell and its plan, the coder, the answer.
    expect(steps).toEqual([1, 4, 5, 6, 8]);
    for (const step of steps) {
      const mine = drafts.filter((d) => d.step === step);
      const action = actions[step - 1]!;
      expect(mine.every((d) => d.agent === action.agent), `step ${step}`).toBe(true);
      const last = mine.at(-1)!;
      // The step's event comes after its last draft, on the wire and in the log.
      expect(action.id!).toBeGreaterThan(last.afterSeq);
      const lastDraftAt = arrivals.findIndex((a) => a.kind === "draft" && a.draft === last);
      const persistedAt = arrivals.findIndex((a) => a.kind === "message" && a.message.seq === action.id);
      if (persistedAt !== -1) expect(lastDraftAt, `step ${step}`).toBeLessThan(persistedAt);
      // No draft of the step after its event.
      const stale = arrivals.slice(lastDraftAt + 1).some((a) => a.kind === "draft" && a.draft.step === step);
      expect(stale).toBe(false);
    }

    // The planner's cell: drafts grow, and the last one holds exactly the code and thinking it persisted.
    const cell = drafts.filter((d) => d.step === 4);
    expect(cell.length).toBeGreaterThanOrEqual(2);
    const sizes = cell.map((d) => written(d).length + (d.view.thinking?.length ?? 0));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(sizes[0]).toBeLessThan(sizes.at(-1)!);
    const plannerStep = watch.messages.find((m) => m.seq === actions[3]!.id)!;
    expect(cell.at(-1)!.view).toEqual({ tool: "execute_python", ...parseStep(plannerStep.content) });
    const cellAction = actions[3]!;
    expect(cell.at(-1)!.view.code).toBe(cellAction.action === "run_ipython" ? cellAction.args.code : null);

    // The coder's step wrote code, then its test; both are in the cell it persisted.
    const coder = drafts.filter((d) => d.step === 6);
    const coderCode = coder.filter((d) => d.view.code !== undefined).at(-1)!.view.code!;
    const coderTest = coder.at(-1)!.view.test!;
    const coderAction = actions[5]!;
    const coderCell = coderAction.action === "run_ipython" ? coderAction.args.code : "";
    expect(coderCell).toContain(coderCode);
    expect(coderCell).toContain(coderTest);
    expect(coderCode).toContain("def count_coins");

    // The answer: the last draft is the reply it persisted.
    const answer = drafts.filter((d) => d.step === 8).at(-1)!;
    const replyAction = actions[7]!;
    expect(answer.view.response).toBe(replyAction.action === "message" ? replyAction.args.content : null);

    // Nothing of the drafts is replayed: sync returns exactly the messages the socket carried.
    const ack = (await watch.socket.timeout(5000).emitWithAck("sync", { afterSeq: 0 })) as SyncAck;
    expect(ack.ok && ack.messages).toEqual(watch.messages);
    watch.socket.disconnect();
  });
});
