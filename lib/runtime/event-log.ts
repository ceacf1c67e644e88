import type { Db } from "@/lib/db/database";
import { appendEventRow, eventsAfter, eventsOfRun } from "@/lib/db/events";
import { upsertRun } from "@/lib/db/runs";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import type { ArgusEvent, ArgusEventInput } from "@/lib/protocol/events";
import type { RunLimits, RunState } from "@/lib/protocol/state";
import { toAgentMessage } from "./projection";
import { fromDict, toDict } from "./serialization";
import { initialRunState, reduceRunState } from "./state-reducer";
import { toStateWire, type RunStateWire } from "./state-wire";

/** What every subscriber (Socket.io, tests, later the seed's update_callback) receives. */
export interface LoggedEvent {
  sessionId: string;
  event: ArgusEvent;
  /** The event's AgentMessage projection, or null for events the chat does not show. */
  message: StreamedMessage | null;
  /** The run's state after this event, when the event belongs to a run. */
  state: RunStateWire | null;
}

export type EventSubscriber = (logged: LoggedEvent) => void;

const ENDED_STATES = new Set(["finished", "error", "stopped", "rejected", "interrupted"]);

export const DEFAULT_RUN_LIMITS: RunLimits = {
  maxTurns: 10,
  maxTokens: 400_000,
  maxWallClockMs: 15 * 60_000,
  maxIterations: 60,
};

function streamedMessage(event: ArgusEvent): StreamedMessage | null {
  const message = toAgentMessage(event);
  if (message === null || event.id === undefined || event.timestamp === undefined) return null;
  return { ...message, seq: event.id, runId: event.runId ?? null, ts: event.timestamp };
}

/**
 * The append-only log of a session. `append` validates the event, writes it to
 * SQLite (assigning its sequence number and time), and only then hands it to
 * subscribers, in append order: nothing is ever shown that a restart could lose.
 */
export class EventLog {
  private readonly subscribers = new Map<string, EventSubscriber>();
  private readonly runStates = new Map<string, RunState>();

  constructor(
    private readonly db: Db,
    private readonly limits: RunLimits = DEFAULT_RUN_LIMITS,
  ) {}

  subscribe(id: string, fn: EventSubscriber): () => void {
    if (this.subscribers.has(id)) throw new Error(`subscriber ${id} is already registered`);
    this.subscribers.set(id, fn);
    return () => this.subscribers.delete(id);
  }

  append(sessionId: string, input: ArgusEventInput): LoggedEvent {
    // Validate first so a malformed event is refused before it takes a number;
    // the log, not the caller, assigns the id and the time.
    const { id: _id, timestamp: _ts, ...rest } = input;
    const checked = fromDict(rest);
    const row = appendEventRow(
      this.db,
      sessionId,
      (seq, ts) => ({
        runId: checked.runId ?? null,
        body: JSON.stringify(toDict({ ...checked, id: seq, timestamp: ts })),
      }),
      new Date().toISOString(),
    );
    const event: ArgusEvent = { ...checked, id: row.seq, timestamp: row.ts };
    const state = event.runId ? this.advanceRun(sessionId, event.runId, event) : null;
    const logged: LoggedEvent = {
      sessionId,
      event,
      message: streamedMessage(event),
      state: state ? toStateWire(state) : null,
    };
    for (const [id, fn] of this.subscribers) {
      try {
        fn(logged);
      } catch (error) {
        // A failing subscriber must not undo or block a persisted event.
        console.error(`[argus] event subscriber ${id} failed:`, error);
      }
    }
    return logged;
  }

  /** Every event after `afterSeq`, in order, parsed back from storage. */
  eventsAfter(sessionId: string, afterSeq: number): ArgusEvent[] {
    return eventsAfter(this.db, sessionId, afterSeq).map((row) => fromDict(JSON.parse(row.body)));
  }

  messagesAfter(sessionId: string, afterSeq: number): StreamedMessage[] {
    const out: StreamedMessage[] = [];
    for (const event of this.eventsAfter(sessionId, afterSeq)) {
      const m = streamedMessage(event);
      if (m) out.push(m);
    }
    return out;
  }

  runState(sessionId: string, runId: string): RunState {
    const cached = this.runStates.get(runId);
    if (cached) return cached;
    let state = initialRunState(runId, this.limits);
    for (const row of eventsOfRun(this.db, sessionId, runId)) {
      state = reduceRunState(state, fromDict(JSON.parse(row.body)));
    }
    if (!ENDED_STATES.has(state.agentState)) this.runStates.set(runId, state);
    return state;
  }

  private advanceRun(sessionId: string, runId: string, event: ArgusEvent): RunState {
    const cached = this.runStates.get(runId);
    // Without a cached state, rebuilding from storage already folds in this
    // event (it was persisted first), so it must not be reduced twice.
    const state = cached ? reduceRunState(cached, event) : this.runState(sessionId, runId);
    // Only live runs stay cached; an ended run is rebuilt from the log if asked
    // for again, so the cache cannot grow with the number of runs ever made.
    if (ENDED_STATES.has(state.agentState)) this.runStates.delete(runId);
    else this.runStates.set(runId, state);
    upsertRun(this.db, {
      id: runId,
      sessionId,
      state,
      agentState: state.agentState,
      now: event.timestamp ?? new Date().toISOString(),
    });
    return state;
  }

  /** Drops cached run states (a deleted session's runs). */
  forgetRuns(runIds: Iterable<string>): void {
    for (const id of runIds) this.runStates.delete(id);
  }
}
