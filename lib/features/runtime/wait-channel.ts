/**
 * Where a session's waits go (lib/foundation/protocol/waits.ts): the kernel registry publishes, Socket.io
 * subscribes (lib/server/socket.ts). Ephemeral like drafts: nothing here touches the database.
 * The wait going on now is kept per session, so a page that connects in the middle of it (a new
 * chat's socket opens while its first run already waits for a kernel) is told it at once.
 */
import { WaitWireSchema, type WaitWire } from "@/lib/foundation/protocol/waits";

export type WaitSubscriber = (sessionId: string, wait: WaitWire) => void;

export class WaitChannel {
  private readonly subscribers = new Set<WaitSubscriber>();
  private readonly ongoing = new Map<string, { wire: WaitWire; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The session's wait going on now, with how long it has lasted so far; null when it waits for nothing. */
  current(sessionId: string): WaitWire | null {
    const held = this.ongoing.get(sessionId);
    return held ? { ...held.wire, waitedMs: held.wire.waitedMs + Math.max(0, Math.round(this.now() - held.at)) } : null;
  }

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
    if (!checked.data.ended) this.ongoing.set(sessionId, { wire: checked.data, at: this.now() });
    else if (this.ongoing.get(sessionId)?.wire.id === checked.data.id) this.ongoing.delete(sessionId);
    for (const fn of this.subscribers) {
      try {
        fn(sessionId, checked.data);
      } catch (error) {
        console.error("[argus] wait subscriber failed:", error);
      }
    }
  }
}
