import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFunctionRunner, runFunction, type FunctionRunnerDeps } from "@/lib/features/functions/run-function";
import { deleteSession as deleteSessionRow } from "@/lib/engines/db/sessions";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";
import { COUNT_COINS_CODE, coinImage } from "@/tests/helpers/coin-images";

/**
 * The function runner with real sandboxed kernels: a count-coins function
 * gives the known counts, and each way a function can misbehave fails only
 * its own call while the next call (and the pool) still works.
 */
let k: KernelCore;
let deps: FunctionRunnerDeps;
let sessionId: string;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "2", ARGUS_KERNEL_MEMORY_MB: "2048" });
  deps = { kernels: k.kernels, db: k.core.db, blobs: k.core.blobs };
  sessionId = (await k.newSession()).id;
});
afterAll(async () => {
  await k?.close();
});

const fn = (code: string, name = "f") => ({ sessionId, name, code });
const input = { name: "in.png", bytes: new Uint8Array([1, 2, 3]) };

async function stillHealthy(): Promise<void> {
  const ok = await runFunction(deps, fn("def f(p):\n    return open(p, 'rb').read(3).hex()\n"), input);
  expect(ok).toMatchObject({ result: "010203" });
  expect(ok.error).toBeUndefined();
}

describe("runFunction", () => {
  it("counts the coins of generated images and stores the overlay it saved", async () => {
    const runner = openFunctionRunner(deps, fn(COUNT_COINS_CODE, "count_coins"));
    try {
      for (const count of [3, 7, 12]) {
        const out = await runner.call({ name: `coins-${count}.png`, bytes: await coinImage(count) });
        expect(out.error, JSON.stringify(out)).toBeUndefined();
        expect((out.result as { count: number }).count).toBe(count);
        expect((out.result as { areas: number[] }).areas).toHaveLength(count);
        expect(out.images).toHaveLength(1);
        expect(out.images[0]!.url).toMatch(/^\/api\/files\//);
        expect(out.seconds).toBeGreaterThan(0);
      }
    } finally {
      await runner.close();
    }
  });

  it("makes any return value JSON: numpy, tuples, NaN, and repr for the rest", async () => {
    const out = await runFunction(
      deps,
      fn("import numpy as np\nclass Box:\n    def __repr__(self):\n        return 'Box()'\ndef f(p):\n    print('hello')\n    return {'t': (1, np.float32(2.5)), 'nan': float('nan'), 'box': Box(), 'arr': np.zeros((2, 2), dtype=np.uint8)}\n"),
      input,
    );
    expect(out.error).toBeUndefined();
    expect(out.result).toEqual({ t: [1, 2.5], nan: null, box: "Box()", arr: [[0, 0], [0, 0]] });
    expect(out.stdout).toBe("hello\n");
  });

  it("stops a hanging function at its timeout", async () => {
    const out = await runFunction(deps, fn("import time\ndef f(p):\n    while True:\n        time.sleep(0.05)\n"), input, { limits: { timeoutMs: 1500 } });
    expect(out.error?.kind).toBe("timeout");
    expect(out.error?.message).toMatch(/stopped/);
    await stillHealthy();
  });

  it("fails a function that prints without end, without holding its output", async () => {
    const out = await runFunction(deps, fn("def f(p):\n    while True:\n        print('x' * 10000)\n"), input, { limits: { maxOutputChars: 100_000 } });
    expect(out.error?.kind).toBe("output_too_large");
    expect(out.stdout.length).toBeLessThanOrEqual(100_000);
    await stillHealthy();
  });

  it("fails a function whose result is too large to send, in the kernel", async () => {
    const out = await runFunction(deps, fn("import numpy as np\ndef f(p):\n    return np.zeros((300, 300))\n"), input, { limits: { maxResultChars: 100_000 } });
    expect(out.error?.kind).toBe("output_too_large");
    expect(out.error?.message).toMatch(/over the limit of 100000/);
    expect(out.result).toBeNull();
  });

  it("fails a memory hog on the kernel's memory limit", async () => {
    const out = await runFunction(deps, fn("import numpy as np\ndef f(p):\n    return np.ones(3 * 1024**3 // 8).sum()\n"), input);
    expect(out.error?.kind).toMatch(/raised|crashed/);
    expect(out.error?.message).toMatch(/Memory|memory/);
    await stillHealthy();
  });

  it("fails a function that kills its kernel with os._exit", async () => {
    const runner = openFunctionRunner(deps, fn("import os\ndef f(p):\n    if p == 'die.png':\n        os._exit(1)\n    return 'alive'\n"));
    try {
      const died = await runner.call({ name: "die.png", bytes: new Uint8Array([0]) });
      expect(died.error?.kind).toBe("crashed");
      // The runner replaced its kernel: the next call works.
      const next = await runner.call({ name: "ok.png", bytes: new Uint8Array([0]) });
      expect(next).toMatchObject({ result: "alive" });
    } finally {
      await runner.close();
    }
    await stillHealthy();
  });

  it("reports code that does not define the function, and a function that raises", async () => {
    expect((await runFunction(deps, fn("def g(p):\n    return 1\n"), input)).error?.kind).toBe("bad_function");
    const raised = await runFunction(deps, fn("def f(p):\n    raise ValueError('no coins here')\n"), input);
    expect(raised.error).toMatchObject({ kind: "raised" });
    expect(raised.error?.message).toMatch(/ValueError: no coins here/);
  });

  it("refuses an input name that is not a plain file name", async () => {
    const out = await runFunction(deps, fn("def f(p):\n    return 1\n"), { name: "../x.png", bytes: new Uint8Array([0]) });
    expect(out.error?.kind).toBe("bad_input");
  });
});

describe("callChunk: several items in one kernel call", () => {
  const names = ["a.png", "b.png", "c.png", "d.png", "e.png"];
  const inputs = names.map((name, i) => ({ name, bytes: new TextEncoder().encode(`item-${i}`) }));
  /** The function reads its own input, so each result shows it got its own file. */
  const own = (misbehaviour: string) => `import os, time, sys\ndef f(p):\n    if p == 'c.png':\n${misbehaviour}\n    return [p, open(p).read()]\n`;

  /** Runs the chunk, then what it did not reach, as the batch runner does; the outcomes of each call. */
  async function runAll(code: string, limits = {}) {
    const runner = openFunctionRunner(deps, fn(code), { limits });
    const calls: string[][] = [];
    const outcomes: Array<{ result: unknown; error?: { kind: string } }> = [];
    const seen: number[] = [];
    try {
      while (outcomes.length < inputs.length) {
        const rest = inputs.slice(outcomes.length);
        const base = outcomes.length;
        const got = await runner.callChunk(rest, { onItem: (index) => void seen.push(base + index) });
        calls.push(got.map((o) => (o.error ? o.error.kind : "done")));
        outcomes.push(...got);
      }
    } finally {
      await runner.close();
    }
    expect(seen).toEqual([0, 1, 2, 3, 4]); // each item told once, in order
    return { calls, outcomes };
  }

  const doneWithOwnInput = (outcomes: Array<{ result: unknown }>, at: number[]) => {
    for (const i of at) expect(outcomes[i]!.result).toEqual([names[i], `item-${i}`]);
  };

  it("times out only the hanging third item; the first two keep their results, the last two run in a fresh call", async () => {
    const { calls, outcomes } = await runAll(own("        while True:\n            time.sleep(0.05)"), { timeoutMs: 8000 });
    expect(calls.flat()).toEqual(["done", "done", "timeout", "done", "done"]);
    expect(calls[0]!.length).toBeLessThan(5); // the first call stopped at the third item; the rest ran in another
    doneWithOwnInput(outcomes, [0, 1, 3, 4]);
    expect(outcomes[2]!.result).toBeNull();
    await stillHealthy();
  });

  it("fails only the third item as crashed when it calls os._exit; the rest run in a new kernel", async () => {
    const { calls, outcomes } = await runAll(own("        os._exit(1)"));
    expect(calls.flat()).toEqual(["done", "done", "crashed", "done", "done"]);
    expect(calls[0]!.length).toBeLessThan(5); // the first call stopped at the third item; the rest ran in another
    doneWithOwnInput(outcomes, [0, 1, 3, 4]);
    await stillHealthy();
  });

  it("fails only the third item when it prints 100 MB", async () => {
    const { calls, outcomes } = await runAll(own("        for _ in range(100):\n            sys.stdout.write('x' * 1_000_000)"), { maxOutputChars: 100_000 });
    expect(calls.flat()).toEqual(["done", "done", "output_too_large", "done", "done"]);
    expect(calls[0]!.length).toBeLessThan(5); // the first call stopped at the third item; the rest ran in another
    doneWithOwnInput(outcomes, [0, 1, 3, 4]);
    await stillHealthy();
  });

  it("gives items with the same file name each its own input, and stores each item's overlay apart", async () => {
    const runner = openFunctionRunner(deps, fn(COUNT_COINS_CODE, "count_coins"));
    try {
      const counts = [2, 5, 9];
      const got = await runner.callChunk(await Promise.all(counts.map(async (c) => ({ name: "coins.png", bytes: await coinImage(c) }))));
      expect(got.map((o) => (o.result as { count: number }).count)).toEqual(counts);
      const overlays = got.map((o) => o.images[0]?.fileId);
      expect(new Set(overlays).size).toBe(3);
      expect(got[0]!.images[0]!.name).toBe("coins_overlay.png");
    } finally {
      await runner.close();
    }
  });

  it("fails only an item whose name is not a plain file name", async () => {
    const runner = openFunctionRunner(deps, fn("def f(p):\n    return p\n"));
    try {
      const got = await runner.callChunk([input, { name: "../x.png", bytes: new Uint8Array([0]) }, { name: "z.png", bytes: new Uint8Array([0]) }]);
      expect(got.map((o) => o.error?.kind ?? o.result)).toEqual(["in.png", "bad_input", "z.png"]);
    } finally {
      await runner.close();
    }
  });

  it("reports a picture it could not store once the cell has ended, never as an unhandled rejection while it runs", async () => {
    // The first item's picture cannot be stored (its session is gone) while the second item still
    // runs: the failure must wait for the cell, not reject a chain nobody awaits yet (in the
    // server, an unhandled rejection ends the process).
    const gone = (await k.newSession()).id;
    await deleteSessionRow(k.core.db, gone);
    const code = "import time\nimport numpy as np\nfrom PIL import Image\ndef f(p):\n    if p == 'slow.png':\n        time.sleep(3)\n        return 'slow'\n    Image.fromarray(np.zeros((8, 8, 3), dtype=np.uint8)).save('out.png')\n    return 'saved'\n";
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const runner = openFunctionRunner(deps, { sessionId: gone, name: "f", code });
    try {
      const failure = await runner.callChunk([{ name: "a.png", bytes: new Uint8Array([1]) }, { name: "slow.png", bytes: new Uint8Array([2]) }]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(String(failure)).toMatch(/FOREIGN KEY|foreign key/);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await runner.close();
    }
  });
});
