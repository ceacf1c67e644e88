/**
 * Token buckets keyed by client: each key may spend `burst` at once and earns
 * `perMinute` back per minute. Pure (the clock is passed in), so the limits can
 * be tested without waiting.
 */
export interface TokenBucketOptions {
  perMinute: number;
  burst: number;
  /** Keys remembered at most; full buckets are forgotten first, then the oldest. */
  maxKeys?: number;
}

export type TakeResult = { ok: true } | { ok: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly maxKeys: number;

  constructor(private readonly o: TokenBucketOptions) {
    this.perMs = o.perMinute / 60_000;
    this.maxKeys = o.maxKeys ?? 10_000;
  }

  /**
   * Takes one token from every key's bucket, or none if any of them is empty
   * (so a refused request costs nothing); the wait is the longest among the empty ones.
   */
  take(keys: readonly string[], now: number): TakeResult {
    const current = keys.map((key) => this.refilled(key, now));
    const empty = current.filter((b) => b.tokens < 1);
    if (empty.length > 0) {
      const retryAfterMs = Math.max(...empty.map((b) => Math.ceil((1 - b.tokens) / this.perMs)));
      return { ok: false, retryAfterMs };
    }
    keys.forEach((key, i) => this.store(key, { tokens: current[i]!.tokens - 1, at: now }));
    return { ok: true };
  }

  size(): number {
    return this.buckets.size;
  }

  private refilled(key: string, now: number): Bucket {
    const b = this.buckets.get(key);
    if (!b) return { tokens: this.o.burst, at: now };
    // A clock that steps back earns nothing rather than a negative refill.
    const elapsed = Math.max(0, now - b.at);
    return { tokens: Math.min(this.o.burst, b.tokens + elapsed * this.perMs), at: now };
  }

  private store(key: string, bucket: Bucket): void {
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.forget(bucket.at);
  }

  /** Bounded memory however many clients there are: a full bucket carries no state worth keeping. */
  private forget(now: number): void {
    for (const [key, b] of this.buckets) {
      if (this.refilled(key, now).tokens >= this.o.burst) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) break;
      this.buckets.delete(key);
    }
  }
}
