/**
 * Accumulates streamed text but keeps at most `head` characters from the start
 * and `tail` from the end, counting what fell out in between. A cell that
 * prints 100 MB must not hold 100 MB in the server, yet the beginning (what
 * the code announced) and the end (where it failed) both matter.
 */
export class CappedText {
  private start = "";
  private end = "";
  private dropped = 0;

  constructor(
    private readonly head: number,
    private readonly tail: number,
  ) {}

  append(chunk: string): void {
    if (this.start.length < this.head) {
      const room = this.head - this.start.length;
      this.start += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.end += chunk;
    // Trim in batches so appending stays amortised O(chunk).
    if (this.end.length > this.tail * 2) {
      const cut = this.end.length - this.tail;
      this.dropped += cut;
      this.end = this.end.slice(cut);
    }
  }

  get omitted(): number {
    return this.dropped + Math.max(0, this.end.length - this.tail);
  }

  toString(): string {
    const overflow = Math.max(0, this.end.length - this.tail);
    const end = this.end.slice(overflow);
    const omitted = this.dropped + overflow;
    if (omitted === 0) return this.start + end;
    return `${this.start}\n[... ${omitted} characters of output omitted ...]\n${end}`;
  }
}
