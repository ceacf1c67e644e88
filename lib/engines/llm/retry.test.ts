import { describe, expect, it } from "vitest";
import { classifyModelError } from "./classify-error";
import { ModelError } from "./errors";
import { attemptSignal, backoffMs, retryDelayMs, withRetries, type RetryPolicy } from "./retry";

const policy: RetryPolicy = { maxRetries: 3, timeoutMs: 1_000, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
const ctx = { role: "coder" as const, model: "m", baseUrl: "http://x/v1", timeoutMs: 1_000 };
const classify = (error: unknown, attempts: number) => classifyModelError(error, { ...ctx, attempts });

const transient = () => new ModelError("server_error", "boom", { retryable: true });
const final = () => new ModelError("auth", "no", { retryable: false });

/** A sleep that records the delays instead of waiting. */
function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe("backoff", () => {
  it("doubles per retry with equal jitter, capped", () => {
    expect(backoffMs(0, policy, () => 0)).toBe(50);
    expect(backoffMs(0, policy, () => 1)).toBe(100);
    expect(backoffMs(2, policy, () => 1)).toBe(400);
    expect(backoffMs(10, policy, () => 1)).toBe(1_000);
    expect(backoffMs(10, policy, () => 0)).toBe(500);
  });

  it("prefers the server's Retry-After, capped", () => {
    const asked = new ModelError("rate_limited", "slow down", { retryable: true, retryAfterMs: 2_000 });
    expect(retryDelayMs(asked, 0, policy)).toBe(2_000);
    const greedy = new ModelError("rate_limited", "slow down", { retryable: true, retryAfterMs: 3_600_000 });
    expect(retryDelayMs(greedy, 0, policy)).toBe(5_000);
    expect(retryDelayMs(transient(), 1, policy, () => 0.5)).toBe(150);
  });
});

describe("withRetries", () => {
  it("retries transient failures, then succeeds", async () => {
    const { waits, sleep } = fakeSleep();
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw transient();
        return "ok";
      },
      { signal: new AbortController().signal, policy, classify, sleep, random: () => 1 },
    );
    expect(result).toBe("ok");
    expect(calls).toBe(3);
    expect(waits).toEqual([100, 200]);
  });

  it("gives up after maxRetries with the attempt count", async () => {
    const { waits, sleep } = fakeSleep();
    let calls = 0;
    const retried: number[] = [];
    const error = await withRetries(
      async () => {
        calls++;
        throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      },
      { signal: new AbortController().signal, policy, classify, sleep, onRetry: (i) => retried.push(i.attempt) },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "unreachable", attempts: 4 });
    expect(calls).toBe(4);
    expect(waits).toHaveLength(3);
    expect(retried).toEqual([1, 2, 3]);
  });

  it("never retries a final error", async () => {
    const { waits, sleep } = fakeSleep();
    let calls = 0;
    const error = await withRetries(
      async () => {
        calls++;
        throw final();
      },
      { signal: new AbortController().signal, policy, classify, sleep },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "auth" });
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("turns silence into a retryable timeout, and progress keeps an attempt alive", async () => {
    const { sleep } = fakeSleep();
    let calls = 0;
    const quick = { ...policy, timeoutMs: 30, maxRetries: 1 };
    const error = await withRetries(
      ({ signal }) => {
        calls++;
        return new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
      },
      { signal: new AbortController().signal, policy: quick, classify, sleep },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout", attempts: 2 });
    expect(calls).toBe(2);

    // 8 pieces of progress 10 ms apart outlast a 30 ms silence timeout.
    const result = await withRetries(
      async ({ signal, touch }) => {
        for (let i = 0; i < 8; i++) {
          await new Promise((r) => setTimeout(r, 10));
          if (signal.aborted) throw signal.reason;
          touch();
        }
        return "streamed";
      },
      { signal: new AbortController().signal, policy: quick, classify, sleep },
    );
    expect(result).toBe("streamed");
  });

  it("a cancel is final and is reported as cancelled, even mid-attempt", async () => {
    const controller = new AbortController();
    let calls = 0;
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    const error = await withRetries(
      ({ signal }) => {
        calls++;
        return new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Error("socket torn down"))));
      },
      { signal: controller.signal, policy, classify },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "cancelled" });
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("a cancel during the backoff wait ends it at once", async () => {
    const controller = new AbortController();
    let calls = 0;
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const error = await withRetries(
      async () => {
        calls++;
        throw new ModelError("rate_limited", "slow down", { retryable: true, retryAfterMs: 10_000 });
      },
      { signal: controller.signal, policy: { ...policy, maxRetryAfterMs: 10_000 }, classify },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "cancelled" });
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("does not start when already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const error = await withRetries(async () => ++calls, { signal: controller.signal, policy, classify }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "cancelled" });
    expect(calls).toBe(0);
  });
});

describe("attemptSignal", () => {
  it("aborts with a TimeoutError after silence, and follows the caller", async () => {
    const caller = new AbortController();
    const a = attemptSignal(caller.signal, 20);
    await new Promise((r) => setTimeout(r, 40));
    expect(a.signal.aborted).toBe(true);
    expect((a.signal.reason as DOMException).name).toBe("TimeoutError");
    expect(a.timedOut()).toBe(true);
    a.dispose();

    const b = attemptSignal(caller.signal, 10_000);
    caller.abort();
    expect(b.signal.aborted).toBe(true);
    expect(b.timedOut()).toBe(false);
    b.dispose();
  });
});
