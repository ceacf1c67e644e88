/**
 * Where a session's waits go (lib/protocol/waits.ts): the kernel registry publishes, Socket.io
 * subscribes (lib/server/socket.ts). Ephemeral like drafts: nothing here touches the database.
 */
import { WaitWireSchema, type WaitWire } from "@/lib/protocol/waits";

export type WaitSubscriber = (sessionId: string, wait: WaitWire) => void;

export class WaitChannel {
  private readonly subscribers = new Set<WaitSubscriber>();

  subscribe(fn: WaitSubscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  publish(sessionId: string, wait: WaitWire): void {
    const checked = WaitWireSchema.safeParse(wait);
    if (!checked.success) {
      console.error("[argus] dropped a malformed wait:", checked.error.message);
      return;
    }
    for (const fn of this.subscribers) {
      try {
        fn(sessionId, checked.data);
      } catch (error) {
        console.error("[argus] wait subscriber failed:", error);
      }
    }
  }
}
