import { randomUUID } from "node:crypto";
import { acquireLease, expiredLeases, leaseOfSession, releaseLease, releaseOwnerLeases, renewLeases, type RunLease } from "@/lib/engines/db/run-leases";
import { getSession, type SessionRow } from "@/lib/engines/db/sessions";
import { DATABASE_UNAVAILABLE_MESSAGE, isConnectionFailure } from "@/lib/engines/db/unavailable";
import { ArgusError, isArgusError } from "@/lib/foundation/errors";
import type { PostMessage } from "@/lib/foundation/protocol/api";
import { TERMINAL_AGENT_STATES } from "@/lib/foundation/protocol/state";
import { writeRunEnding } from "@/lib/features/runtime/run-ending";
import { KeyedMutex } from "@/lib/foundation/common/keyed-mutex";
import { routeRunCommand, runsWithoutLease, sweepPlan, takeOverDeferMs } from "./lease-policy";
import { recoverAtStart } from "./run-recovery";
import { RUN_MOVING_MESSAGE, takeOverRun, type TakeOverDeps } from "./run-takeover";
import { LeaseUpkeep } from "./lease-upkeep";
import { COMMAND_TIMEOUT_MS, type RunCommandBus } from "./run-command-bus";
import type { BatchCancelResult, RunCommand, RunCommandResult } from "./run-commands";

/** The commands for a session's run (a batch's cancel goes to the batch's owner instead). */
type SessionRunCommand = Exclude<RunCommand, { kind: "cancel_batch" }>;

/** What the router needs: what taking a run over needs (run-takeover.ts), and the bus. */
export interface RunRouterDeps extends TakeOverDeps {
  /** Reaches other instances (REDIS_URL); null for a lone instance. */
  bus: RunCommandBus | null;
  /**
   * Cancels a batch this instance runs, for another instance that received the cancel
   * (BatchRunner.cancelHere): resolves when it is settled, or after `settleWithinMs` with the cancel under way.
   */
  cancelBatchHere?: (batchId: string, settleWithinMs: number) => Promise<void>;
}

const ENDED = new Set<string>(TERMINAL_AGENT_STATES);

/**
 * Runs belong to the instance that started them. The router is the one door
 * for starting, answering and stopping runs: it holds each local run's lease
 * in the database (renewed every few seconds), sends commands for a run owned
 * elsewhere to its owner, and sweeps: a lease that ran out means its owner
 * died, so its run is marked interrupted in the chat and the session is free
 * again. A lone instance (no REDIS_URL) keeps leases too, and never routes.
 */
export class RunRouter {
  /** Renewals and sweeps on the lease timings, one at a time (each step reports its own failures). */
  private readonly upkeep: LeaseUpkeep;
  private closed = false;
  private readonly stopListening: () => void;
  private readonly stopHearingRefusals: () => void;
  /**
   * Runs this instance took a lease for, by session, until they settle: only these can lose
   * their lease (a run started without the router, by a test or a tool, holds none).
   */
  private readonly leased = new Map<string, string>();
  /** One start at a time per session here, so two requests never take one lease for two runs. */
  private readonly starting = new KeyedMutex();
  /**
   * Runs that settled here while the database was unreachable (their end unrecorded or their
   * lease still held), by session: retried at every renewal until the database is back. Their
   * leases stay renewed meanwhile, so no other instance writes over them.
   */
  private readonly unsettled = new Map<string, string>();
  /** Dead owners' runs this instance, without kernels, left to others (logged once each). */
  private readonly leftToOthers = new Set<string>();
  /** Runs among those that stopped because the database went away: they go on from the log once it is back. */
  private readonly cutByOutage = new Set<string>();

  constructor(private readonly deps: RunRouterDeps) {
    this.upkeep = new LeaseUpkeep(deps.leaseMs, { renew: () => this.renew(), sweep: () => this.sweep() }, (step, error) => deps.log(`[runs] lease ${step} failed: ${String(error)}`));
    this.stopListening = deps.runs.onSettled((sessionId, runId, cutByDatabase) => {
      if (this.leased.get(sessionId) === runId) this.leased.delete(sessionId);
      if (cutByDatabase) this.cutByOutage.add(runId);
      void this.settle(sessionId, runId);
    });
    // The database refused one of a run's writes: another instance took it over while this one
    // was stalled. It stops here at once, before its lease renewal would have noticed.
    this.stopHearingRefusals = deps.events.fences.onRefused(({ sessionId, runId }) => this.lost(sessionId, runId, "a write of its run was refused"));
  }

  /** This instance no longer holds the run's lease: the run stops here without writing more. */
  private lost(sessionId: string, runId: string, how: string): void {
    if (this.leased.get(sessionId) !== runId) return;
    this.leased.delete(sessionId);
    this.deps.log(`[runs] lost the lease of session ${sessionId} (another instance took its run over; ${how}); stopping it here`);
    this.deps.runs.abandon(sessionId);
  }

  /**
   * Records a settled run's end if it never got one (it failed because its writes could not
   * reach the database), then lets go of its lease. Writes only while this instance still holds
   * the run's lease: a run another instance took over is that instance's to end.
   */
  private async settle(sessionId: string, runId: string): Promise<unknown> {
    const { db, events, instanceId, log } = this.deps;
    try {
      const lease = await leaseOfSession(db, sessionId);
      // A run the full disk cut off has its one ending already (kept in memory until the disk has
      // room: run-manager.ts endUnwritten); a second "database could not be reached" would be wrong.
      const endedElsewhere = events.hasUnwrittenEnding(sessionId, runId);
      if (lease?.owner === instanceId && lease.runId === runId && !endedElsewhere && (await getSession(db, sessionId)) && !ENDED.has((await events.runState(sessionId, runId)).agentState)) {
        // Still this instance's, under the same lease: the run goes on from the log (RunManager.resumeHere).
        const why = this.cutByOutage.delete(runId) && this.deps.resumeRuns ? await this.deps.runs.resumeHere(sessionId, runId, "database") : "not cut off by the database";
        if (why === null) {
          this.leased.set(sessionId, runId);
          this.unsettled.delete(sessionId);
          return null;
        }
        await writeRunEnding((event) => events.append(sessionId, event), runId, { kind: "database_lost" });
        log(`[runs] run ${runId} (session ${sessionId}) stopped without a recorded end; marked it interrupted`);
      }
      await releaseLease(db, { sessionId, runId, owner: instanceId });
      events.fences.drop(runId);
      this.unsettled.delete(sessionId);
      return null;
    } catch (error) {
      if (!this.unsettled.has(sessionId)) log(`[runs] could not record the end of run ${runId} or release its lease (retrying): ${String(error)}`);
      this.unsettled.set(sessionId, runId);
      return error;
    }
  }

  get instanceId(): string {
    return this.deps.instanceId;
  }

  /**
   * Marks the runs the last stop cut off interrupted (recoverAtStart), then starts renewing this
   * instance's leases, sweeping expired ones, and serving commands from others. Called once
   * Socket.io is attached (server.ts), so the connected clients, on every instance, hear those
   * runs end without reloading.
   */
  async start(): Promise<void> {
    try {
      const interrupted = await recoverAtStart(this.deps, this.leased);
      if (interrupted > 0) this.deps.log(`[argus] marked ${interrupted} run(s) interrupted by the last stop`);
    } catch (error) {
      this.deps.log(`[runs] could not mark the runs the last stop cut off interrupted: ${String(error)}`);
    }
    this.upkeep.start();
    await this.deps.bus?.start((command) => this.handle(command));
  }

  /** Starts a run, or answers the question a waiting run asked, wherever that run lives. */
  async post(session: SessionRow, body: PostMessage): Promise<RunCommandResult> {
    const route = await this.route(session.id, { needsKernels: true });
    if (route.kind === "remote") return this.remote(route.owner, { kind: "post", sessionId: session.id, body });
    return this.postHere(session, body);
  }

  /** Stops the session's run if there is one, wherever it runs (the session is being deleted). */
  async cancelIfActive(sessionId: string): Promise<void> {
    try {
      await this.cancel(sessionId);
    } catch {
      // No run, or its owner is unreachable: the deletion goes on, and the owner's run ends at its next write.
    }
  }

  /** Stops the session's run wherever it runs. */
  async cancel(sessionId: string): Promise<{ runId: string }> {
    const route = await this.route(sessionId, { needsKernels: false });
    if (route.kind === "remote") return this.remote(route.owner, { kind: "cancel", sessionId });
    return this.deps.runs.cancel(sessionId);
  }

  /**
   * Where a command for the session goes; a dead owner's run is taken over first. A message (it
   * will run cells) takes it no sooner than this instance's sweeper would; a stop ends it at once.
   */
  private async route(sessionId: string, o: { needsKernels: boolean }): Promise<{ kind: "local" } | { kind: "remote"; owner: string }> {
    const defer = o.needsKernels ? this.takeOverDefer() : 0;
    const route = routeRunCommand(await leaseOfSession(this.deps.db, sessionId), this.deps.instanceId, Date.now(), defer);
    if (route.kind === "take_over") {
      await this.takeOver(route.lease);
      return { kind: "local" };
    }
    if (route.kind === "left_to_others") {
      throw new ArgusError("unavailable:jupyter", RUN_MOVING_MESSAGE, { retryAfterSeconds: 5 });
    }
    return route;
  }

  /** How long this instance leaves a dead owner's runs to others (lease-policy.ts): only while it cannot run kernels. */
  private takeOverDefer(): number {
    return this.deps.canRunKernels() ? 0 : takeOverDeferMs(this.deps.leaseMs);
  }

  private async remote(owner: string, command: SessionRunCommand): Promise<RunCommandResult> {
    if (!this.deps.bus) {
      throw new ArgusError(
        "conflict:message",
        "Another Argus instance is running this chat's run, and without REDIS_URL the instances cannot reach each other; wait for it to finish.",
      );
    }
    return this.deps.bus.send(owner, command);
  }

  private postHere(session: SessionRow, body: PostMessage): Promise<RunCommandResult> {
    return this.starting.run(session.id, () => this.startOrAnswer(session, body));
  }

  private async startOrAnswer(session: SessionRow, body: PostMessage): Promise<RunCommandResult> {
    const { db, runs, instanceId, leaseMs } = this.deps;
    // An answer, or a refusal, for the run already going here: no new lease.
    if (runs.isActive(session.id)) return runs.post(session, body);
    // The chat first records how its previous run ended, if the database was down then.
    const unsettledRun = this.unsettled.get(session.id);
    if (unsettledRun) {
      const failure = await this.settle(session.id, unsettledRun);
      // Only an unreachable database is this request's answer; anything else (a full disk) is
      // met again below by the step that refuses it in its own words (507).
      if (failure !== null && (isConnectionFailure(failure) || (isArgusError(failure) && failure.type === "unavailable"))) throw new ArgusError("unavailable:db", DATABASE_UNAVAILABLE_MESSAGE, { retryAfterSeconds: 5 });
    }
    // A continue (Retry after a failure) goes on under the run's own id, so its lease names that run.
    const runId = body.redo?.kind === "continue" ? body.redo.runId : randomUUID();
    const lease = await acquireLease(db, { sessionId: session.id, runId, owner: instanceId, expiresAt: Date.now() + leaseMs });
    if (lease.owner !== instanceId) {
      // Another instance started a run in this chat a moment ago: it answers.
      return this.remote(lease.owner, { kind: "post", sessionId: session.id, body });
    }
    // Every write of the run, its first event included, is made under this lease (fencing).
    this.deps.events.fences.hold({ sessionId: session.id, runId, owner: instanceId, epoch: lease.epoch });
    try {
      const started = await runs.post(session, body, { runId });
      if (!started.resumed) this.leased.set(session.id, started.runId);
      return started;
    } catch (error) {
      if (!runs.isActive(session.id)) {
        this.deps.events.fences.drop(runId);
        await releaseLease(db, { sessionId: session.id, runId, owner: instanceId });
      }
      throw error;
    }
  }

  /** A command from another instance for a run (or a batch) this one owns. */
  private async handle(command: RunCommand): Promise<RunCommandResult | BatchCancelResult> {
    if (command.kind === "cancel") return this.deps.runs.cancel(command.sessionId);
    if (command.kind === "cancel_batch") {
      if (!this.deps.cancelBatchHere) throw new ArgusError("unavailable:api", "This Argus instance does not run batches.");
      // Answered well before the asker gives up: interrupting items can take seconds on a busy machine.
      await this.deps.cancelBatchHere(command.batchId, COMMAND_TIMEOUT_MS / 2);
      return { batchId: command.batchId };
    }
    const session = await getSession(this.deps.db, command.sessionId);
    if (!session) throw new ArgusError("not_found:session", "This session no longer exists.");
    return this.postHere(session, command.body);
  }

  private async renew(): Promise<void> {
    const { db, runs, instanceId, leaseMs, log } = this.deps;
    for (const [sessionId, runId] of [...this.unsettled]) await this.settle(sessionId, runId);
    try {
      // Only runs leased before the renewal was asked for can be missing from its answer.
      const before = new Map(this.leased);
      const held = await renewLeases(db, instanceId, Date.now() + leaseMs);
      const leasedHere = [...before].filter(([sessionId, runId]) => this.leased.get(sessionId) === runId && runs.isActive(sessionId)).map(([sessionId]) => sessionId);
      // This process stalled past its lease and another instance already ended the run.
      for (const sessionId of runsWithoutLease(leasedHere, held)) this.lost(sessionId, before.get(sessionId)!, "found at renewal");
    } catch (error) {
      log(`[runs] could not renew run leases: ${String(error)}`);
    }
  }

  /** Takes over every run whose owner's lease ran out (later, without kernels here: lease-policy.ts). */
  async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      const now = Date.now();
      const expired = await expiredLeases(this.deps.db, now);
      const { take, leave } = sweepPlan(expired, this.deps.instanceId, now, this.takeOverDefer());
      for (const runId of this.leftToOthers) if (!expired.some((l) => l.runId === runId)) this.leftToOthers.delete(runId);
      for (const lease of leave.filter((l) => !this.leftToOthers.has(l.runId))) {
        this.leftToOthers.add(lease.runId);
        this.deps.log(`[runs] left run ${lease.runId} of instance ${lease.owner} to instances that can run notebook cells (Jupyter is not running here)`);
      }
      for (const lease of take) await this.takeOver(lease);
    } catch (error) {
      this.deps.log(`[runs] lease sweep failed: ${String(error)}`);
    }
  }

  /** Takes a dead or stalled owner's run over: it goes on here from the log, or is marked interrupted (run-takeover.ts). */
  private takeOver(lease: RunLease): Promise<void> {
    return takeOverRun(this.deps, lease, "moved", this.leased);
  }

  /** Stops the timers, lets go of this instance's leases (its runs were marked interrupted) and the bus. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.upkeep.stop();
    this.stopListening();
    this.stopHearingRefusals();
    await releaseOwnerLeases(this.deps.db, this.deps.instanceId).catch(() => undefined);
    await this.deps.bus?.close();
  }
}

