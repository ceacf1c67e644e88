/**
 * What a session's browser was kept from loading, from both gates (request
 * routing and the egress proxy), kept until the agent takes it for the model's
 * next observation. Bounded: a page that hammers a blocked tracker can't grow it.
 */
import type { BrowserRefusal } from "./computer-types";

const KEEP = 100;

export class RefusalLog {
  private entries: Array<BrowserRefusal & { seq: number }> = [];
  private seq = 0;

  record(refusal: BrowserRefusal): void {
    this.entries.push({ ...refusal, seq: ++this.seq });
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
  }

  /** A point to ask "what was refused since?" about. */
  mark(): number {
    return this.seq;
  }

  since(mark: number): BrowserRefusal[] {
    return this.entries.filter((e) => e.seq > mark).map(({ seq: _seq, ...refusal }) => refusal);
  }

  /** Everything not taken yet, oldest first; the log is empty afterwards. */
  take(): BrowserRefusal[] {
    const taken = this.since(0);
    this.entries = [];
    return taken;
  }
}
