import { z } from "zod";
import type { StreamedMessage } from "./agent-message";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { AgentNameSchema } from "./event-base";
import type { BatchEvent } from "./batches";
import type { WaitWire } from "./waits";

/** Socket.io handshake: `io(url, { auth: { sessionId, token } })`. */
export const SocketAuthSchema = z.object({
  sessionId: z.string().uuid(),
  token: z.string().min(1).max(200).optional(),
});

/** `socket.emit("sync", { afterSeq }, ack)`: every message after afterSeq, in order. */
export const SyncRequestSchema = z.object({
  afterSeq: z.number().int().min(0),
});

export type SocketError = { code: string; message: string; field?: string };

export type SyncAck =
  | { ok: true; messages: StreamedMessage[]; state: RunStateWire | null }
  | { ok: false; error: SocketError };

/**
 * What a person should see of a model reply still being written: the fields of the tool call
 * (or tagged text) so far, decoded. Every field is optional; an empty object means "nothing
 * readable yet" (e.g. the reply started over after a retry).
 */
export const DraftViewSchema = z.strictObject({
  /** The tool being called, once the reply names it. */
  tool: z.string().optional(),
  /** Reasoning: the model's reasoning field, text beside the call, `<thinking>`, a thinking argument. */
  thinking: z.string().optional(),
  code: z.string().optional(),
  test: z.string().optional(),
  /** The conversation agent's answer to the person (Markdown). */
  response: z.string().optional(),
  question: z.string().optional(),
  plan: z.string().optional(),
});
export type DraftView = z.infer<typeof DraftViewSchema>;

/**
 * The ephemeral `draft` event: a step's reply as the model writes it. Never persisted nor
 * replayed by `sync`; the step's persisted event replaces it. Each draft carries the whole view
 * so far (not a delta), so a dropped or coalesced draft loses nothing.
 */
export const DraftWireSchema = z.strictObject({
  runId: z.string().min(1),
  agent: AgentNameSchema,
  /** Counts the run's steps from 1: drafts with the same step belong to one bubble. */
  step: z.number().int().min(1),
  /**
   * The session's last persisted seq when this draft was sent. The step's own event will have a
   * higher seq, so a client holding any message past `afterSeq` knows the draft is superseded.
   */
  afterSeq: z.number().int().min(0),
  view: DraftViewSchema,
});
export type DraftWire = z.infer<typeof DraftWireSchema>;

export interface ServerToClientEvents {
  message: (m: StreamedMessage) => void;
  state: (s: RunStateWire) => void;
  draft: (d: DraftWire) => void;
  /** What the session's run waits for (a kernel starting, a free kernel), at its start and end (waits.ts). */
  wait: (w: WaitWire) => void;
  /** A batch run's state change (lib/foundation/protocol/batches.ts). */
  batch: (e: BatchEvent) => void;
  /**
   * Several instances (REDIS_URL): this instance's link to Redis came back after an outage, so
   * events of runs on other instances may have been lost on the way. The client asks `sync`
   * from the start of the session again (merging by seq drops what it already has).
   */
  resync: () => void;
}

export interface ClientToServerEvents {
  sync: (req: unknown, ack: (res: SyncAck) => void) => void;
}

export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
