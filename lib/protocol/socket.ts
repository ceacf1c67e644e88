import { z } from "zod";
import type { StreamedMessage } from "./agent-message";
import type { RunStateWire } from "@/lib/protocol/state-wire";

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

export interface ServerToClientEvents {
  message: (m: StreamedMessage) => void;
  state: (s: RunStateWire) => void;
}

export interface ClientToServerEvents {
  sync: (req: unknown, ack: (res: SyncAck) => void) => void;
}

export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
