import type { BatchEvent } from "@/lib/foundation/protocol/batches";

export type BatchSubscriber = (sessionId: string, event: BatchEvent) => void;

/**
 * Where batch state changes go: Socket.io subscribes (lib/server/socket.ts) and
 * relays them to the session's room as `batch`. A port, so lib/features/batches never
 * imports the server. Every event carries the whole batch view, and the state
 * is in the database first, so a page that missed events reads it over HTTP.
 */
export class BatchChannel {
  private readonly subscribers = new Set<BatchSubscriber>();

  subscribe(fn: BatchSubscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  publish(sessionId: string, event: BatchEvent): void {
    for (const fn of this.subscribers) {
      try {
        fn(sessionId, event);
      } catch (error) {
        console.error("[argus] batch subscriber failed:", error);
      }
    }
  }
}
