/**
 * Resolves a host name to all of its addresses with the system resolver (the
 * same one every other program here uses: /etc/hosts, then DNS), caching the
 * answer briefly. The egress proxy connects to the very addresses that were
 * judged, so a name that changes its answer between the check and the
 * connection (DNS rebinding) gains nothing.
 */
import { lookup } from "node:dns/promises";

export interface HostResolverOptions {
  /** How long an answer is reused. */
  ttlMs?: number;
  /** How long a failed lookup is remembered. */
  negativeTtlMs?: number;
  /** A lookup slower than this counts as failed. */
  timeoutMs?: number;
  /** Names remembered at most; the oldest go first. */
  maxEntries?: number;
}

interface Entry {
  addresses: Promise<string[]>;
  expires: number;
}

export class HostResolver {
  private readonly cache = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly timeoutMs: number;
  private readonly maxEntries: number;

  constructor(options: HostResolverOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 1_000;
  }

  /** Every address of `host` (no brackets), or [] when it does not resolve. Never rejects. */
  resolve(host: string, now = Date.now()): Promise<string[]> {
    const hit = this.cache.get(host);
    if (hit && hit.expires > now) return hit.addresses;
    // Concurrent requests for one name share a single lookup.
    const addresses = this.lookupAll(host);
    const entry: Entry = { addresses, expires: now + this.ttlMs };
    this.cache.delete(host);
    this.cache.set(host, entry);
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    void addresses.then((found) => {
      if (found.length === 0 && this.cache.get(host) === entry) entry.expires = Math.min(entry.expires, Date.now() + this.negativeTtlMs);
    });
    return addresses;
  }

  private async lookupAll(host: string): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never[]>((resolve) => {
      timer = setTimeout(() => resolve([]), this.timeoutMs);
    });
    try {
      const found = lookup(host, { all: true, verbatim: true }).then(
        (answers) => answers.map((a) => a.address),
        () => [],
      );
      return await Promise.race([found, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
