import { randomUUID } from "node:crypto";
import type { AgentFactory } from "@/agents/types";
import { diskFullError } from "@/lib/engines/db/disk-space";
import { runsInState } from "@/lib/engines/db/runs";
import { getSession, setTitleIfEmpty, type SessionRow } from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import type { PersonAnswer, PersonQuestion } from "@/lib/engines/kernels/bridge";
import type { ModelClient } from "@/lib/engines/llm/models";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { PostMessage } from "@/lib/foundation/protocol/api";
import { personMessage } from "@/lib/foundation/protocol/event-builders";
import { fileUrl } from "@/lib/foundation/protocol/files";
import type { AgentName } from "@/lib/foundation/protocol/events";
import { chosenModels } from "@/lib/features/sessions/chosen-models";
import { pendingInteraction } from "./pending-interaction";
import { askInRun, attemptOptions, stopRun, type ActiveRun, type RunManagerDeps, type RunSettings } from "./active-run";
import { Controller, type ControllerOptions } from "./controller";
import { rebuildNotebookIfLost } from "./notebook-rebuild";
import { eventsAgentsSee } from "./redo-log";
import { openRun, titleFrom, type RunOpening } from "./run-opening";
import { controllerFromLog, resumeNotice, type ResumeReason } from "./run-resumption";
import { DiskFullEndings } from "./disk-full-endings";
import { settleEscapedFailure } from "./escaped-failure";
import { waitFromTheStart } from "./resume-waiting";
import { writeRunEnding } from "./run-ending";

export type { RunManagerDeps, RunSettings, RunStart } from "./active-run";

/** A run's agents held for going on with it: kept here after a failure or a stop, or rebuilt from the log. */
type Kept = { runId: string; controller: Controller; agents: AgentFactory; waitingFor?: Parameters<typeof waitFromTheStart>[1] | null };

/** The seed's update_callback: every AgentMessage of every session, in order. */
export type UpdateCallback = (sessionId: string, message: StreamedMessage) => void;

/**
 * Starts, resumes and stops runs. At most one run is active per session; a
 * message that arrives while the run waits for the person resumes that same
 * run (the kernel stayed alive meanwhile).
 */
export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  /** The newest run of each session that failed or was stopped, with its agents: what Retry and Continue go on with. */
  private readonly kept = new Map<string, Kept>();
  private closing = false;
  private subscriberCount = 0;
  /** Endings of runs the full disk cut off, written once the disk has room. */
  private readonly diskFull: DiskFullEndings;
  /** Told when a run leaves this process (ended, failed or stopped): its lease is released. */
  private readonly settledListeners = new Set<(sessionId: string, runId: string, cutByDatabase: boolean) => void>();

  constructor(
    private readonly core: RunManagerDeps,
    private readonly model: ModelClient | null,
    private readonly settings: RunSettings,
  ) {
    this.diskFull = new DiskFullEndings(core.events);
  }

  /**
   * Runs the log says were still going when this process started were cut off
   * by a stop or a crash (their kernels and model calls died with it): say so
   * in their chats and mark them interrupted, so the session carries on.
   */
  async markInterrupted(shouldMark: (run: { id: string; sessionId: string }) => boolean = () => true): Promise<number> {
    const stale = (await runsInState(this.core.db, ["loading", "running", "awaiting_user_input", "paused"])).filter(
      // Another live instance may own some of them (see lib/features/scale/run-router.ts).
      (run) => !this.active.has(run.sessionId) && shouldMark(run),
    );
    for (const run of stale) await this.noteInterrupted(run.sessionId, run.id);
    return stale.length;
  }

  /**
   * The server is stopping: mark every active run interrupted now, then stop
   * them without letting them write anything more (otherwise a kernel dying in
   * the teardown could end a run as an error before the process exits).
   */
  async shutdown(): Promise<void> {
    this.closing = true;
    this.diskFull.stop();
    for (const [sessionId, run] of this.active) {
      try {
        await this.noteInterrupted(sessionId, run.runId);
      } catch (error) {
        // A full disk or an unreachable database: the next start marks the run interrupted from the log.
        console.error(`[argus] could not mark run ${run.runId} interrupted:`, error);
      }
      run.abort.abort();
      run.waiting?.reject(new Error("the server is stopping"));
      run.waiting = null;
    }
  }

  private noteInterrupted = (sessionId: string, runId: string) => writeRunEnding((event) => this.core.events.append(sessionId, event), runId, { kind: "server_stopped" });

  isActive(sessionId: string): boolean {
    return this.active.has(sessionId);
  }

  /** Sessions whose run this process is executing (or holding for an answer). */
  activeSessions(): string[] {
    return [...this.active.keys()];
  }

  /** Registers a listener for runs leaving this process; returns a function that removes it. */
  onSettled(listener: (sessionId: string, runId: string, cutByDatabase: boolean) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /** Registers an update_callback; returns a function that removes it. */
  subscribe(callback: UpdateCallback): () => void {
    return this.core.events.subscribe(`update_callback:${++this.subscriberCount}`, ({ sessionId, message }) => {
      if (message) callback(sessionId, message);
    });
  }

  /** `options.runId` names a new run in advance (its lease was taken under that id). */
  async post(session: SessionRow, body: PostMessage, options: { runId?: string } = {}): Promise<{ runId: string; resumed: boolean }> {
    const run = this.active.get(session.id);
    const media = (body.media ?? []).map(fileUrl);
    if (body.redo && run) throw new ArgusError("conflict:message", "A run is already in progress in this session; wait for it or stop it.");
    if (body.answers !== undefined && run?.waiting?.seq !== body.answers) {
      throw new ArgusError("conflict:message", "That question was already answered or is no longer waiting, so this answer was not used.");
    }
    if (run?.waiting) {
      // An answer, whether sent as interaction_response or typed as plain text.
      const { seq, kind, resolve } = run.waiting;
      if (body.choice && body.choice.kind !== kind) {
        throw new ArgusError("bad_request:message", `This answer is for a ${body.choice.kind.replace("_", " ")}, but the waiting question is not one: answer it in words.`, { field: "choice.kind" });
      }
      run.waiting = null;
      const answer = (await this.core.events.append(session.id, personMessage(body.content, media, { runId: run.runId, cause: seq }, body.choice))).event;
      resolve(answer);
      return { runId: run.runId, resumed: true };
    }
    if (body.role === "interaction_response") {
      throw new ArgusError("conflict:message", "There is no question waiting for an answer in this session.");
    }
    if (run) throw new ArgusError("conflict:message", "A run is already in progress in this session; wait for it or stop it.");
    if (!this.model) {
      throw new ArgusError(
        "unavailable:message",
        "No model is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL) and ARGUS_MODEL, then restart Argus.",
      );
    }
    // New work needs room, and the chat must first record how earlier runs ended.
    this.core.disk.assertRoom("message");
    // A continue goes on under the run's own id (the router leased it under that id).
    const runId = body.redo?.kind === "continue" ? body.redo.runId : (options.runId ?? randomUUID());
    const active: ActiveRun = { runId, abort: new AbortController(), waiting: null };
    // Claimed before the first await, so a second message arriving meanwhile
    // hears "a run is already in progress" instead of starting another run.
    this.active.set(session.id, active);
    let kept = this.kept.get(session.id) ?? null;
    let opening: RunOpening;
    try {
      const unwritten = await this.diskFull.writeUnwritten();
      // A run this process does not hold (another instance ran it, or Argus restarted since) is rebuilt from the log.
      const rebuilt = !kept && body.redo?.kind === "continue" ? await this.fromLog(session.id, active) : null;
      if (rebuilt && !("why" in rebuilt)) kept = rebuilt;
      if (unwritten) throw diskFullError("message", unwritten);
      opening = await openRun(this.core.events, session.id, runId, body, kept?.runId ?? null);
      if (!body.redo || body.redo.kind === "edit") await setTitleIfEmpty(this.core.db, session.id, titleFrom(body.content));
    } catch (error) {
      if (this.active.get(session.id) === active) this.active.delete(session.id);
      throw error;
    }
    // Whatever happens next, the run the process kept is either going on now or left behind.
    this.kept.delete(session.id);
    this.launch(session.id, active, async () => {
      const since = Date.now();
      if (body.redo?.kind === "continue") await this.rebuildNotebook(session.id, active, kept);
      if (opening.continues && kept) await this.resumeKept(session.id, active, kept, since);
      else await this.execute(session.id, active, opening);
    });
    return { runId, resumed: false };
  }

  /**
   * Picks up here a run this process does not hold, from the log (run-resumption.ts): its owner
   * died or stalled, this process restarted, or the database went away under it. Its lease is
   * already this instance's. Returns why it cannot be picked up (the caller ends it), or null.
   */
  async resumeHere(sessionId: string, runId: string, reason: ResumeReason): Promise<string | null> {
    if (this.active.has(sessionId) || this.closing || !this.model) return "this instance cannot run it now";
    const active: ActiveRun = { runId, abort: new AbortController(), waiting: null };
    this.active.set(sessionId, active);
    const kept = await this.fromLog(sessionId, active).catch((error: unknown) => ({ why: String(error) }));
    if ("why" in kept) {
      if (this.active.get(sessionId) === active) this.active.delete(sessionId);
      return kept.why;
    }
    this.kept.delete(sessionId);
    // Its question is still on screen: an answer is taken from now on, even while the notebook is rebuilt.
    if (kept.waitingFor != null) waitFromTheStart(active, kept.waitingFor);
    this.launch(sessionId, active, async () => {
      const since = Date.now();
      await this.core.events.append(sessionId, resumeNotice(reason, runId));
      await this.rebuildNotebook(sessionId, active, kept);
      await this.resumeKept(sessionId, active, kept, since);
    });
    return null;
  }

  private async fromLog(sessionId: string, run: ActiveRun): Promise<Kept | { why: string }> {
    const built = await controllerFromLog(this.core, this.model!, { sessionId, runId: run.runId, options: this.controllerOptions(sessionId, run) });
    return "why" in built ? built : { runId: run.runId, ...built };
  }

  /** Re-runs the recorded cells if the notebook's kernel is gone, metered as the run's own cells. */
  private rebuildNotebook(sessionId: string, active: ActiveRun, kept: Kept | null): Promise<number> {
    return rebuildNotebookIfLost(this.core, { sessionId, runId: active.runId, signal: active.abort.signal, meter: kept ? () => kept.controller.bridgeMeter() : undefined });
  }

  private async resumeKept(sessionId: string, active: ActiveRun, kept: Kept, since?: number): Promise<void> {
    await kept.controller.resume({ ...this.controllerOptions(sessionId, active), agents: kept.agents }, since);
    this.keepIfResumable(sessionId, active, kept.controller, kept.agents);
  }

  /** Carries out one attempt of a run in the background; it leaves this process when `work` settles. */
  private launch(sessionId: string, active: ActiveRun, work: () => Promise<void>): void {
    const runId = active.runId;
    let cutByDatabase = false;
    void work()
      .catch(async (error: unknown) => {
        cutByDatabase = await settleEscapedFailure(error, { sessionId, runId, closing: this.closing, diskFull: this.diskFull, db: this.core.db });
      })
      .catch((error: unknown) => console.error("[argus] could not end a run:", error))
      .finally(() => {
        if (this.active.get(sessionId) === active) this.active.delete(sessionId);
        for (const listener of this.settledListeners) listener(sessionId, runId, cutByDatabase);
      });
  }

  /** Asks the person something from inside a running step (a cell's tool review): same card, waiting state and run. */
  async ask(sessionId: string, question: PersonQuestion, agent: AgentName): Promise<PersonAnswer> {
    const run = this.active.get(sessionId);
    if (!run) throw new Error("there is no active run to ask the person in");
    return askInRun(this.core.events, sessionId, run, question, agent);
  }

  /** Stops the session's run if there is one (the session is being deleted). */
  cancelIfActive(sessionId: string): void {
    this.kept.delete(sessionId);
    if (this.active.has(sessionId)) this.cancel(sessionId);
  }

  /**
   * Stops the session's run without writing anything more: another instance
   * already ended it in the log (this one stalled past its lease).
   */
  abandon(sessionId: string): void {
    const run = this.active.get(sessionId);
    if (!run) return;
    run.abandoned = true;
    stopRun(run, "taken over by another instance");
  }

  /** Stops the active run: its model call is aborted and its cell interrupted. */
  cancel(sessionId: string): { runId: string } {
    const run = this.active.get(sessionId);
    if (!run) throw new ArgusError("conflict:session", "There is no active run to stop.");
    stopRun(run, "cancelled");
    return { runId: run.runId };
  }

  private controllerOptions(sessionId: string, run: ActiveRun): Omit<ControllerOptions, "agents"> {
    return attemptOptions(sessionId, run, {
      limits: this.settings.limits,
      ask: (question, agent) => this.ask(sessionId, question, agent),
      closing: () => this.closing || run.abandoned === true,
    });
  }

  private async execute(sessionId: string, run: ActiveRun, opening: RunOpening): Promise<void> {
    // Agents remember what is still current: turns a Regenerate or Edit superseded are left out.
    const events = eventsAgentsSee(await this.core.events.eventsAfter(sessionId, 0));
    const agents = await this.core.agents({ sessionId, events, text: opening.text, media: opening.media });
    // The models the person chose for this chat (the model picker), else the server's.
    const model = this.model!.withModels(chosenModels((await getSession(this.core.db, sessionId))?.settings ?? {}));
    const controller = new Controller(this.core, model, { ...this.controllerOptions(sessionId, run), agents: agents.create });
    await controller.run(agents.root, opening.firstSeq);
    this.keepIfResumable(sessionId, run, controller, agents.create);
  }

  /** A run that failed or was stopped keeps its agents here, so Retry or Continue picks it up where it stopped. */
  private keepIfResumable(sessionId: string, run: ActiveRun, controller: Controller, agents: AgentFactory): void {
    if (controller.resumable && !this.closing && !run.abandoned) this.kept.set(sessionId, { runId: run.runId, controller, agents });
  }

  /** The question the session still owes an answer to (for the transcript view). */
  async pending(sessionId: string) {
    return pendingInteraction(await this.core.events.eventsAfter(sessionId, 0));
  }
}
