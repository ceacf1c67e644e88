"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { createDraftStore, isDraftWire, type DraftStore } from "./live-draft";
import { hasChatItem, lastSeq, mergeMessages } from "./merge-messages";
import { isSocketRefusal } from "./session-refusal";
import type { BatchEvent } from "@/lib/foundation/protocol/batches";
import { publishBatchEvent, publishReconnect } from "./session-batch-events";
import { sessionWaits } from "./session-waits";

export interface SessionStream {
  messages: StreamedMessage[];
  state: RunStateWire | null;
  connected: boolean;
  /**
   * The server refused this session (another browser's chat, or one that no
   * longer exists). The socket then stops: retrying can't change the answer.
   */
  refused: boolean;
  /** Adds messages fetched another way (the initial GET). */
  absorb: (messages: StreamedMessage[]) => void;
  /** The newest live draft (ephemeral; see live-draft.ts for when it still stands). */
  drafts: DraftStore;
}

/**
 * Live messages of one session over Socket.io. On every (re)connect the page
 * asks `sync` for what it missed since the last seq it holds and merges by seq,
 * so a dropped connection or a reload loses nothing and shows nothing twice.
 */
export function useSessionStream(sessionId: string | null): SessionStream {
  const [messages, setMessages] = useState<StreamedMessage[]>([]);
  const [state, setState] = useState<RunStateWire | null>(null);
  const [connected, setConnected] = useState(false);
  const [refused, setRefused] = useState(false);
  const held = useRef<StreamedMessage[]>([]);
  // Drafts arrive up to ~30 times a second: kept out of React state so only the bubble re-renders.
  const drafts = useMemo(createDraftStore, []);

  const absorb = (incoming: StreamedMessage[]) => {
    setMessages((current) => {
      const next = mergeMessages(current, incoming.filter(hasChatItem));
      held.current = next;
      return next;
    });
  };

  useEffect(() => {
    setMessages([]);
    held.current = [];
    setState(null);
    setRefused(false);
    drafts.set(null);
    sessionWaits.clear();
    if (!sessionId) return;
    // The browser cookie authenticates the socket; the session id picks the room.
    const socket: Socket = io({ auth: { sessionId }, transports: ["websocket", "polling"] });
    const catchUp = (afterSeq = lastSeq(held.current)) => {
      socket.emit("sync", { afterSeq }, (ack: SyncAck) => {
        if (!ack.ok) return;
        absorb(ack.messages);
        if (ack.state) setState(ack.state);
      });
    };
    socket.on("connect", () => {
      setConnected(true);
      catchUp();
      publishReconnect(sessionId);
    });
    socket.on("disconnect", () => {
      setConnected(false);
      sessionWaits.clear(); // its end may come while this page is away
    });
    socket.on("connect_error", (error) => {
      setConnected(false);
      if (isSocketRefusal(error)) {
        setRefused(true);
        socket.disconnect();
      }
    });
    socket.on("message", (m: StreamedMessage) => absorb([m]));
    // Another instance's events may have been lost while Redis was away: all of them again, merged by seq.
    socket.on("resync", () => catchUp(0));
    socket.on("state", (s: RunStateWire) => setState(s));
    // The batch panel listens through this one socket (session-batch-events.ts).
    socket.on("batch", (e: BatchEvent) => publishBatchEvent(sessionId, e));
    // What the run waits for (a kernel starting): shown in its running step (session-waits.ts).
    socket.on("wait", (w: unknown) => sessionWaits.receive(w));
    socket.on("draft", (d: unknown) => {
      if (isDraftWire(d)) drafts.set(d);
    });
    return () => {
      socket.disconnect();
    };
  }, [sessionId, drafts]);

  return { messages, state, connected, refused, absorb, drafts };
}
