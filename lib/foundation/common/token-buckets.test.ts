import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./token-buckets";

describe("TokenBuckets", () => {
  it("allows a burst, then refuses with the wait until the next token", () => {
    const b = new TokenBuckets({ perMinute: 6, burst: 3 });
    for (let i = 0; i < 3; i++) expect(b.take(["ip:a"], 0)).toEqual({ ok: true });
    expect(b.take(["ip:a"], 0)).toEqual({ ok: false, retryAfterMs: 10_000 });
    expect(b.take(["ip:a"], 4_000)).toEqual({ ok: false, retryAfterMs: 6_000 });
    expect(b.take(["ip:a"], 10_000)).toEqual({ ok: true });
    expect(b.take(["ip:a"], 10_000).ok).toBe(false);
  });

  it("keeps clients apart", () => {
    const b = new TokenBuckets({ perMinute: 1, burst: 1 });
    expect(b.take(["ip:a"], 0).ok).toBe(true);
    expect(b.take(["ip:a"], 0).ok).toBe(false);
    expect(b.take(["ip:b"], 0).ok).toBe(true);
  });

  it("refuses when any key is empty and then charges none of them", () => {
    const b = new TokenBuckets({ perMinute: 60, burst: 2 });
    expect(b.take(["ip:a", "browser:x"], 0).ok).toBe(true);
    expect(b.take(["ip:a", "browser:x"], 0).ok).toBe(true);
    // A new cookie from the same address does not buy more.
    expect(b.take(["ip:a", "browser:y"], 0)).toEqual({ ok: false, retryAfterMs: 1_000 });
    // ...and the refusal cost browser:y nothing.
    expect(b.take(["ip:b", "browser:y"], 0).ok).toBe(true);
    expect(b.take(["ip:b", "browser:y"], 0).ok).toBe(true);
    expect(b.take(["ip:b", "browser:y"], 0).ok).toBe(false);
  });

  it("never refills past the burst, and a clock stepping back earns nothing", () => {
    const b = new TokenBuckets({ perMinute: 60, burst: 2 });
    expect(b.take(["k"], 1_000_000).ok).toBe(true);
    expect(b.take(["k"], 9_000_000).ok).toBe(true);
    expect(b.take(["k"], 9_000_000).ok).toBe(true);
    expect(b.take(["k"], 9_000_000).ok).toBe(false);
    expect(b.take(["k"], 0).ok).toBe(false);
  });

  it("remembers a bounded number of clients, forgetting full buckets before throttled ones", () => {
    const b = new TokenBuckets({ perMinute: 60, burst: 2, maxKeys: 3 });
    expect(b.take(["hot"], 0).ok).toBe(true);
    expect(b.take(["hot"], 0).ok).toBe(true);
    expect(b.take(["a"], 0).ok).toBe(true);
    expect(b.take(["b"], 0).ok).toBe(true);
    // At 1.5 s a and b are full again and "hot" is not: a fourth key forgets a and b only.
    expect(b.take(["c"], 1_500).ok).toBe(true);
    expect(b.size()).toBe(2);
    expect(b.take(["hot"], 1_500).ok).toBe(true);
    expect(b.take(["hot"], 1_500).ok).toBe(false);
    // Past the bound with nothing full, the oldest go.
    for (let i = 0; i < 100; i++) b.take([`k${i}`], 1_500);
    expect(b.size()).toBeLessThanOrEqual(3);
  });
});
