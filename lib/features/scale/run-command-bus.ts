import { randomUUID } from "node:crypto";
import { ArgusError, isArgusError, type ErrorCode } from "@/lib/foundation/errors";
import { ReplayGuard, seal, unseal } from "./command-seal";
import type { RedisClient } from "./redis";
import {
  commandChannel,
  replyChannel,
  resultSchemaOf,
  RunCommandReplySchema,
  RunCommandRequestSchema,
  type BatchCancelResult,
  type ResultOf,
  type RunCommand,
  type RunCommandReply,
  type RunCommandResult,
} from "./run-commands";

/** How long an instance waits for a run's owner to answer before telling the person to retry. */
export const COMMAND_TIMEOUT_MS = 5000;

/** A command claiming a later deadline is refused: ids are remembered (against replays) that long at most. */
const MAX_COMMAND_LIFETIME_MS = 5 * 60_000;

type Handler = (command: RunCommand) => Promise<RunCommandResult | BatchCancelResult>;

/**
 * Cancels and answers for a run owned by another instance, and cancels of a
 * batch another instance runs, travel to that owner over Redis pub/sub, on a
 * channel of its own, and its reply comes back on the asker's channel.
 * Pub/sub, not the Socket.io adapter's serverSideEmit: the owner is known from
 * its lease, so only it is asked, and a reply never waits on every other
 * instance's acknowledgement (serverSideEmit with an ack waits for all of
 * them, a dead one included, until its timeout).
 *
 * Every command and reply is sealed with the cluster secret (command-seal.ts):
 * one that is unsigned, signed with another key or for another channel, or a
 * replay of one already handled, is dropped with a log line.
 */
export class RunCommandBus {
  private readonly pending = new Map<string, { resolve: (r: RunCommandReply) => void; timer: NodeJS.Timeout }>();
  private subscriber: RedisClient | null = null;
  private readonly replays = new ReplayGuard(MAX_COMMAND_LIFETIME_MS);

  constructor(
    private readonly publisher: RedisClient,
    private readonly instanceId: string,
    /** ARGUS_CLUSTER_SECRET, the same on every instance. */
    private readonly secret: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Subscribes to this instance's command and reply channels. Waits for the
   * subscription at most `waitMs`: a Redis that is down at start must not keep
   * Argus from serving (the client subscribes as soon as Redis is back).
   */
  async start(handler: Handler, waitMs = 5000): Promise<void> {
    const subscriber = this.publisher.duplicate();
    // The publisher already reports Redis going away; the duplicate would say it twice.
    subscriber.on("error", () => undefined);
    this.subscriber = subscriber;
    const subscribed = (async () => {
      await subscriber.connect();
      await subscriber.subscribe(replyChannel(this.instanceId), (raw) => this.onReply(raw));
      await subscriber.subscribe(commandChannel(this.instanceId), (raw) => void this.onCommand(raw, handler));
    })();
    subscribed.catch((error: unknown) => this.log(`[runs] could not subscribe to run commands: ${String(error)}`));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), waitMs)));
    const outcome = await Promise.race([subscribed.then(() => "ok" as const, () => "failed" as const), late]);
    clearTimeout(timer);
    if (outcome === "late") this.log("[runs] Redis is not answering yet; run commands from other instances will arrive once it does");
  }

  /**
   * How many clients listen on this instance id's command channel now, before this process
   * subscribes: more than none means another live process runs under the same ARGUS_INSTANCE_ID
   * (a process that died, even by kill -9, lost its subscription with its connection). Null when
   * Redis did not answer within `waitMs`.
   */
  async listenersOfThisId(waitMs = 5000): Promise<number | null> {
    const channel = commandChannel(this.instanceId);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
    const asked = this.publisher.pubSubNumSub(channel).then(
      (counts) => Number((counts as Record<string, number>)[channel] ?? 0),
      () => null,
    );
    const answer = await Promise.race([asked, late]);
    clearTimeout(timer);
    return answer;
  }

  /** Sends `command` to `owner` and waits for its answer; throws the owner's ArgusError, or 503. */
  async send<C extends RunCommand>(owner: string, command: C, timeoutMs = COMMAND_TIMEOUT_MS): Promise<ResultOf<C>> {
    const id = randomUUID();
    // Redis is away: say so now instead of queueing a command the person will have given up on.
    if (!this.publisher.isReady) throw new ArgusError("unavailable:message", UNREACHABLE, { retryAfterSeconds: 5 });
    const reply = new Promise<RunCommandReply>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ id, ok: false, error: { code: "unavailable:message", message: UNREACHABLE } });
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
    });
    // A publish while Redis is down waits in the client's queue: the deadline above still holds.
    const channel = commandChannel(owner);
    this.publisher
      .publish(channel, seal(this.secret, channel, JSON.stringify({ id, from: this.instanceId, expiresAt: Date.now() + timeoutMs, command })))
      .then((receivers) => {
        // Nobody listens on the owner's channel: it is gone (its lease has not run out yet).
        if (receivers === 0) this.settle({ id, ok: false, error: { code: "unavailable:message", message: UNREACHABLE } });
      })
      .catch(() => undefined);
    const answer = await reply;
    if (answer.ok) {
      const result = resultSchemaOf(command.kind).safeParse(answer.result);
      if (!result.success) throw new ArgusError("internal:message", `Another Argus instance (${owner}) gave an answer this one does not understand; are they running the same version?`);
      return result.data as ResultOf<C>;
    }
    throw new ArgusError(answer.error.code as ErrorCode, answer.error.message, answer.error.field ? { field: answer.error.field } : undefined);
  }

  private settle(reply: RunCommandReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(reply.id);
    waiting.resolve(reply);
  }

  private onReply(raw: string): void {
    const opened = unseal(this.secret, replyChannel(this.instanceId), raw);
    if (!opened.ok) {
      this.log(`[runs] ignored a run command reply (${opened.reason})`);
      return;
    }
    const parsed = RunCommandReplySchema.safeParse(safeJson(opened.body));
    if (parsed.success) this.settle(parsed.data);
  }

  private async onCommand(raw: string, handler: Handler): Promise<void> {
    const opened = unseal(this.secret, commandChannel(this.instanceId), raw);
    if (!opened.ok) {
      this.log(`[runs] refused a run command (${opened.reason}): every instance needs the same ARGUS_CLUSTER_SECRET`);
      return;
    }
    const parsed = RunCommandRequestSchema.safeParse(safeJson(opened.body));
    if (!parsed.success) {
      this.log(`[runs] ignored a malformed run command: ${parsed.error.message.slice(0, 200)}`);
      return;
    }
    const { id, from, command, expiresAt } = parsed.data;
    const admitted = this.replays.admit(id, expiresAt);
    if (admitted === "expired") {
      this.log(`[runs] dropped a ${command.kind} for session ${command.sessionId} from ${from}: it arrived after its asker gave up`);
      return;
    }
    if (admitted !== "fresh") {
      this.log(`[runs] refused a ${command.kind} for session ${command.sessionId} from ${from}: ${admitted === "replayed" ? "a replay of a command already handled" : "its deadline is too far ahead"}`);
      return;
    }
    let reply: RunCommandReply;
    try {
      reply = { id, ok: true, result: await handler(command) };
    } catch (error) {
      if (!isArgusError(error)) this.log(`[runs] a ${command.kind} for session ${command.sessionId} failed: ${String(error)}`);
      reply = isArgusError(error)
        ? { id, ok: false, error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } }
        : { id, ok: false, error: { code: "internal:message", message: "Something went wrong on the server; the error was logged." } };
    }
    const channel = replyChannel(from);
    await this.publisher.publish(channel, seal(this.secret, channel, JSON.stringify(reply))).catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.resolve({ id, ok: false, error: { code: "unavailable:message", message: UNREACHABLE } });
    }
    this.pending.clear();
    try {
      this.subscriber?.destroy();
    } catch {
      // already closed
    }
  }
}

const UNREACHABLE = "The Argus instance running this chat's run did not answer; try again in a few seconds.";

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
