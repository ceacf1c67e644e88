/**
 * Where live drafts go: Socket.io subscribes (lib/server/socket.ts), the controller publishes.
 * A port, so the runtime never imports the server. Drafts are ephemeral: nothing here touches
 * the database, and a draft nobody hears is simply gone.
 */
import { DraftWireSchema, type DraftWire } from "@/lib/foundation/protocol/socket";

export type DraftSubscriber = (sessionId: string, draft: DraftWire) => void;

export class DraftChannel {
  private readonly subscribers = new Set<DraftSubscriber>();

  subscribe(fn: DraftSubscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /** Validates the draft (it is about to go on the wire) and hands it to every subscriber. */
  publish(sessionId: string, draft: DraftWire): void {
    const checked = DraftWireSchema.safeParse(draft);
    if (!checked.success) {
      // A draft is a courtesy: a bad one is a bug to see, never a reason to fail the run.
      console.error("[argus] dropped a malformed draft:", checked.error.message);
      return;
    }
    for (const fn of this.subscribers) {
      try {
        fn(sessionId, checked.data);
      } catch (error) {
        console.error("[argus] draft subscriber failed:", error);
      }
    }
  }
}
