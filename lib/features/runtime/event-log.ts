import type { Db } from "@/lib/engines/db/database";
import { appendEventRow, eventsAfter, eventsOfRun, lastSeq } from "@/lib/engines/db/events";
import { isRunLeaseLost, type RunFence } from "@/lib/engines/db/run-leases";
import { upsertRun } from "@/lib/engines/db/runs";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { ArgusEvent, ArgusEventInput } from "@/lib/foundation/protocol/events";
import { TERMINAL_AGENT_STATES, type RunLimits, type RunState } from "@/lib/foundation/protocol/state";
import { toChatItem } from "./projection";
import { chatItemMessage } from "@/lib/foundation/protocol/chat-text";
import { fromDict, toDict } from "./serialization";
import { initialRunState, reduceRunState } from "./state-reducer";
import { toStateWire, type RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { KeyedMutex } from "@/lib/foundation/common/keyed-mutex";
import { RunFences } from "./run-fences";

interface UnwrittenEnding {
  sessionId: string;
  runId: string;
  reason: string;
  /** The run's last known state with agentState "error". */
  state: RunState;
  /** Whether the reason already reached the log (only the state is left). */
  noted: boolean;
}

/** What every subscriber (Socket.io, tests, later the seed's update_callback) receives. */
export interface LoggedEvent {
  sessionId: string;
  /** Null when only a state is announced (a run that ended while the disk refused writes). */
  event: ArgusEvent | null;
  /** The event's chat item with its AgentMessage text form, or null for events the chat does not show. */
  message: StreamedMessage | null;
  /** The run's state after this event, when the event belongs to a run. */
  state: RunStateWire | null;
}

/** What `append` returns: always an event, written. */
export type AppendedEvent = LoggedEvent & { event: ArgusEvent };

export type EventSubscriber = (logged: LoggedEvent) => void;

const ENDED_STATES = new Set<string>(TERMINAL_AGENT_STATES);

export const DEFAULT_RUN_LIMITS: RunLimits = {
  maxTurns: 10,
  maxTokens: 400_000,
  maxWallClockMs: 15 * 60_000,
  maxIterations: 60,
};

function streamedMessage(event: ArgusEvent): StreamedMessage | null {
  const item = toChatItem(event);
  if (item === null || event.id === undefined || event.timestamp === undefined) return null;
  return { ...chatItemMessage(item), item, seq: event.id, runId: event.runId ?? null, ts: event.timestamp };
}

/**
 * The append-only log of a session. `append` validates the event, writes it to
 * the database (assigning its sequence number and time), and only then hands it
 * to subscribers, in append order: nothing is ever shown that a restart could lose.
 * Appends to one session take turns in this process, so subscribers hear a
 * session's events in seq order even though writes are async; across processes
 * the database's lock on the session row keeps seq unique (lib/engines/db/events.ts).
 * An event of a run this instance holds the lease of is written under that lease (`fences`):
 * once another instance took the run over, the database refuses it (RunLeaseLost) and the
 * fences' listeners stop the run here.
 */
export class EventLog {
  private readonly subscribers = new Map<string, EventSubscriber>();
  private readonly runStates = new Map<string, RunState>();
  /** Runs that ended while nothing could be written, newest per session: see endUnwritten. */
  private readonly unwritten = new Map<string, UnwrittenEnding>();
  /** One append at a time per session: write, advance its run, publish, then the next. */
  private readonly appending = new KeyedMutex();
  /** The newest seq this process wrote per session, for readers that cannot wait (live drafts). */
  private readonly newest = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly limits: RunLimits = DEFAULT_RUN_LIMITS,
    readonly fences: RunFences = new RunFences(),
  ) {}

  subscribe(id: string, fn: EventSubscriber): () => void {
    if (this.subscribers.has(id)) throw new Error(`subscriber ${id} is already registered`);
    this.subscribers.set(id, fn);
    return () => this.subscribers.delete(id);
  }

  append(sessionId: string, input: ArgusEventInput): Promise<AppendedEvent> {
    // Validate first so a malformed event is refused before it takes a number;
    // the log, not the caller, assigns the id and the time.
    const { id: _id, timestamp: _ts, ...rest } = input;
    const checked = fromDict(rest);
    return this.appending.run(sessionId, () => this.write(sessionId, checked));
  }

  private async write(sessionId: string, checked: ArgusEvent): Promise<AppendedEvent> {
    const fence = checked.runId ? this.fences.of(sessionId, checked.runId) : null;
    const row = await this.fenced(fence, () =>
      appendEventRow(
        this.db,
        sessionId,
        (seq, ts) => ({
          runId: checked.runId ?? null,
          body: JSON.stringify(toDict({ ...checked, id: seq, timestamp: ts })),
        }),
        new Date().toISOString(),
        fence,
      ),
    );
    const event: ArgusEvent = { ...checked, id: row.seq, timestamp: row.ts };
    this.newest.set(sessionId, row.seq);
    // The event is in the log (before any take-over note); a run taken over meanwhile keeps the
    // state the new owner wrote, so only the event is told.
    const state = event.runId ? await this.advanceRun(sessionId, event.runId, event, fence).catch((error: unknown) => {
      if (isRunLeaseLost(error)) return null;
      throw error;
    }) : null;
    const logged: AppendedEvent = {
      sessionId,
      event,
      message: streamedMessage(event),
      state: state ? toStateWire(state) : null,
    };
    this.publish(logged);
    return logged;
  }

  private publish(logged: LoggedEvent): void {
    for (const [id, fn] of this.subscribers) {
      try {
        fn(logged);
      } catch (error) {
        // A failing subscriber must not undo or block a persisted event.
        console.error(`[argus] event subscriber ${id} failed:`, error);
      }
    }
  }

  /**
   * A run ended but its ending could not be written (the disk is full). The
   * run's state changes here in memory and every subscriber hears it at once,
   * with `reason`; `writeUnwritten` records it in the log once writes work.
   */
  async endUnwritten(sessionId: string, runId: string, reason: string): Promise<void> {
    const state: RunState = { ...(await this.runState(sessionId, runId)), agentState: "error" };
    this.runStates.delete(runId);
    this.unwritten.set(sessionId, { sessionId, runId, reason, state, noted: false });
    this.publish({ sessionId, event: null, message: null, state: { ...toStateWire(state), notice: reason } });
  }

  /** Whether this run ended with the disk full and its ending still waits to be written (writeUnwritten). */
  hasUnwrittenEnding(sessionId: string, runId: string): boolean {
    return this.unwritten.get(sessionId)?.runId === runId;
  }

  /** Runs still waiting for their ending to be written. */
  get unwrittenCount(): number {
    return this.unwritten.size;
  }

  /**
   * Writes the endings `endUnwritten` kept: the reason in the chat, then the
   * final state. Stops at the first write that fails (the disk is still full)
   * and returns it, so the caller can try again later.
   */
  async writeUnwritten(note: (reason: string) => ArgusEventInput[]): Promise<unknown> {
    for (const [sessionId, ending] of this.unwritten) {
      try {
        const [observation, ...rest] = note(ending.reason);
        if (!ending.noted && observation) {
          await this.append(sessionId, { ...observation, runId: ending.runId });
          ending.noted = true;
        }
        for (const event of rest) await this.append(sessionId, { ...event, runId: ending.runId });
        this.unwritten.delete(sessionId);
      } catch (error) {
        return error;
      }
    }
    return null;
  }

  /** The state of the session's newest run: one ended but not yet written wins over storage. */
  latestRunState(sessionId: string, stored: RunState | null): RunStateWire | null {
    const ending = this.unwritten.get(sessionId);
    if (ending && (!stored || stored.runId === ending.runId)) return { ...toStateWire(ending.state), notice: ending.reason };
    return stored ? toStateWire(stored) : null;
  }

  /** Forgets a session's unwritten ending (the session was deleted). */
  forgetSession(sessionId: string): void {
    this.unwritten.delete(sessionId);
    this.newest.delete(sessionId);
  }

  /** The newest seq this process appended to the session (0 when none yet): no database read. */
  newestWritten(sessionId: string): number {
    return this.newest.get(sessionId) ?? 0;
  }

  /** A live run's state when it is cached (every live run this process advanced), without reading storage. */
  cachedRunState(runId: string): RunState | undefined {
    return this.runStates.get(runId);
  }

  /** The seq of the session's newest event (0 when it has none). */
  lastSeq(sessionId: string): Promise<number> {
    return lastSeq(this.db, sessionId);
  }

  /** Every event after `afterSeq`, in order, parsed back from storage. */
  async eventsAfter(sessionId: string, afterSeq: number): Promise<ArgusEvent[]> {
    return (await eventsAfter(this.db, sessionId, afterSeq)).map((row) => fromDict(JSON.parse(row.body)));
  }

  async messagesAfter(sessionId: string, afterSeq: number): Promise<StreamedMessage[]> {
    const out: StreamedMessage[] = [];
    for (const event of await this.eventsAfter(sessionId, afterSeq)) {
      const m = streamedMessage(event);
      if (m) out.push(m);
    }
    return out;
  }

  async runState(sessionId: string, runId: string): Promise<RunState> {
    const cached = this.runStates.get(runId);
    if (cached) return cached;
    let state = initialRunState(runId, this.limits);
    for (const row of await eventsOfRun(this.db, sessionId, runId)) {
      state = reduceRunState(state, fromDict(JSON.parse(row.body)));
    }
    if (!ENDED_STATES.has(state.agentState)) this.runStates.set(runId, state);
    return state;
  }

  /** Runs a write under `fence`; a refusal is told to the fences' listeners, then thrown. */
  private async fenced<T>(fence: RunFence | null, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (fence && isRunLeaseLost(error)) {
        this.runStates.delete(fence.runId);
        this.fences.refused(fence);
      }
      throw error;
    }
  }

  private async advanceRun(sessionId: string, runId: string, event: ArgusEvent, fence: RunFence | null): Promise<RunState> {
    const cached = this.runStates.get(runId);
    // Without a cached state, rebuilding from storage already folds in this
    // event (it was persisted first), so it must not be reduced twice.
    const state = cached ? reduceRunState(cached, event) : await this.runState(sessionId, runId);
    // Only live runs stay cached; an ended run is rebuilt from the log if asked
    // for again, so the cache cannot grow with the number of runs ever made.
    if (ENDED_STATES.has(state.agentState)) this.runStates.delete(runId);
    else this.runStates.set(runId, state);
    await this.fenced(fence, () =>
      upsertRun(this.db, { id: runId, sessionId, state, agentState: state.agentState, now: event.timestamp ?? new Date().toISOString() }, fence),
    );
    return state;
  }

  /** Drops cached run states (a deleted session's runs). */
  forgetRuns(runIds: Iterable<string>): void {
    for (const id of runIds) this.runStates.delete(id);
  }
}
