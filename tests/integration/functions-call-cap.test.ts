import { afterAll, beforeAll, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * The run endpoint's calls take kernels under ARGUS_MAX_KERNELS like sessions do. A caller firing
 * slow calls at once (one token is enough) could take every kernel, and no session could start
 * one: the server runs at most half the cap of function calls at once and refuses the rest.
 */
let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_MAX_KERNELS: "4", ARGUS_KERNEL_POOL: "1" });
});
afterAll(async () => {
  await k?.close();
});

it("refuses calls past half the kernel cap, and a session still gets its kernel meanwhile", async () => {
  const caller = await k.newSession();
  const other = await k.newSession();
  const calls = k.core.functionCalls!;
  const slow = (n: number) => ({ sessionId: caller.id, name: "f", code: `import time\ndef f(p):\n    time.sleep(2)\n    return ${n}\n` });
  const input = { name: "in.png", bytes: new Uint8Array([1]) };
  // Four versions at once, as a script would send them: each would want a kernel of its own.
  const outcomes = await Promise.allSettled([
    calls.call(slow(1), input),
    calls.call(slow(2), input),
    calls.call(slow(3), input),
    (async () => {
      // While the calls hold what they may, the other session's notebook still starts.
      const cell = await k.kernels.execute(other.id, "print(6 * 7)");
      expect(cell.stdout).toContain("42");
      return calls.call(slow(4), input);
    })(),
  ]);
  const refused = outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason as ArgusError);
  const ran = outcomes.filter((o) => o.status === "fulfilled").map((o) => (o as PromiseFulfilledResult<{ result: unknown }>).value.result);
  expect(refused.length).toBeGreaterThanOrEqual(1);
  for (const error of refused) {
    expect(error).toBeInstanceOf(ArgusError);
    expect(error).toMatchObject({ code: "rate_limited:function", status: 429 });
  }
  expect(ran).toEqual(expect.arrayContaining([1, 2]));
});
