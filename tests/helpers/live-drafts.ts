/**
 * Live drafts checked against a finished count-coins run: the run's drafts must come before
 * their step's persisted event, grow, end with exactly what the step persisted, and change
 * nothing in the log. Used by the dialect runs, so every way a model writes its calls
 * (native, text protocol, Hermes blocks) is checked.
 */
import type { Socket } from "socket.io-client";
import { expect } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { eventsAfter } from "@/lib/engines/db/events";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { isAction, type ActionEvent } from "@/lib/foundation/protocol/events";
import type { DraftWire, SyncAck } from "@/lib/foundation/protocol/socket";
import { DraftWireSchema } from "@/lib/foundation/protocol/socket";
import { fromDict } from "@/lib/features/runtime/serialization";
import type { AgentWorld, Watch } from "./agent-run";

export type Arrival = { kind: "draft"; draft: DraftWire } | { kind: "message"; message: StreamedMessage };

/** Records `draft` and `message` in the order they arrive; call before the run starts. */
export function recordArrivals(socket: Socket): Arrival[] {
  const arrivals: Arrival[] = [];
  socket.on("draft", (draft: DraftWire) => arrivals.push({ kind: "draft", draft }));
  socket.on("message", (message: StreamedMessage) => arrivals.push({ kind: "message", message }));
  return arrivals;
}

/** The field a step's drafts grow: what the agent is writing. */
const written = (d: DraftWire) => d.view.code ?? d.view.test ?? d.view.response ?? d.view.plan ?? d.view.question ?? d.view.thinking ?? "";

/** `inPieces`: the wire streamed the calls in pieces, so drafts must grow (Ollama sends each call whole). */
export async function expectDraftsMatchLog(world: AgentWorld, session: { id: string }, runId: string, arrivals: Arrival[], watch: Watch, options: { inPieces: boolean }): Promise<void> {
    const drafts = arrivals.flatMap((a) => (a.kind === "draft" ? [a.draft] : []));
    expect(drafts.length).toBeGreaterThan(0);
    for (const d of drafts) {
      expect(DraftWireSchema.parse(d)).toEqual(d);
      expect(d.runId).toBe(runId);
    }

    // One action event per step, exactly as without drafts: the k-th agent action is step k.
    const db = await openDatabase(world.server.database);
    const events = (await eventsAfter(db, session.id, 0)).map((row) => fromDict(JSON.parse(row.body)));
    await db.close();
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
    const sizes = cell.map((d) => written(d).length + (d.view.thinking?.length ?? 0));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    if (options.inPieces) {
      expect(cell.length).toBeGreaterThanOrEqual(2);
      expect(sizes[0]).toBeLessThan(sizes.at(-1)!);
    }
    const plannerStep = watch.messages.find((m) => m.seq === actions[3]!.id)!;
    const stepItem = plannerStep.item;
    if (stepItem.type !== "cell") throw new Error(`the planner's step is a ${stepItem.type}, not a cell`);
    expect(cell.at(-1)!.view).toEqual({ tool: "execute_python", thinking: stepItem.thinking.trim(), code: stepItem.code });
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
}
