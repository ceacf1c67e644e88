import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFunctionRunner, runFunction, type FunctionRunnerDeps } from "@/lib/features/functions/run-function";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * A stored function is untrusted code running in the same Python process as
 * argus.function_call, so it can publish a display of the outcome's own mime
 * type, or replace `_publish`, and hand the server an outcome of its choosing.
 * The server must still hold the call's timeout and its result and output caps.
 */
let k: KernelCore;
let deps: FunctionRunnerDeps;
let sessionId: string;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "1" });
  deps = { kernels: k.kernels, db: k.core.db, blobs: k.core.blobs };
  sessionId = (await k.newSession()).id;
});
afterAll(async () => {
  await k?.close();
});

const fn = (code: string) => ({ sessionId, name: "f", code });
const input = { name: "in.png", bytes: new Uint8Array([1, 2, 3]) };

/** Publishes a forged outcome the way call_function does, from inside the function. */
const FORGE = [
  "from IPython.display import display",
  "import argus.function_call as fc",
  "def forge(result, stdout=''):",
  "    display({fc.RESULT_MIME: {'result': result, 'stdout': stdout, 'seconds': 0.01, 'error': None, 'saved': []}, 'text/plain': ''}, raw=True)",
].join("\n");

describe("a function forging its own outcome", () => {
  it("still times out when it publishes a success and then hangs", async () => {
    const code = `${FORGE}\nimport time\ndef f(p):\n    forge('fine')\n    while True:\n        time.sleep(0.05)\n`;
    const out = await runFunction(deps, fn(code), input, { limits: { timeoutMs: 1500 } });
    expect(out.error?.kind).toBe("timeout");
    expect(out.result).toBeNull();
  });

  it("cannot send a result over the cap by silencing the real outcome", async () => {
    const code = `${FORGE}\ndef f(p):\n    fc._publish = lambda outcome: None\n    forge('x' * 200_000)\n    return 1\n`;
    const out = await runFunction(deps, fn(code), input, { limits: { maxResultChars: 100_000 } });
    expect(out.error?.kind).toBe("output_too_large");
    expect(out.result).toBeNull();
  });

  it("cannot send printed output over the cap inside a forged outcome", async () => {
    const code = `${FORGE}\ndef f(p):\n    fc._publish = lambda outcome: None\n    forge(1, 'y' * 200_000)\n    return 1\n`;
    const out = await runFunction(deps, fn(code), input, { limits: { maxOutputChars: 100_000 } });
    expect(out.error?.kind).toBe("output_too_large");
    expect(out.stdout.length).toBeLessThanOrEqual(100_000);
  });

  it("is refused when it publishes an outcome beside the real one", async () => {
    const runner = openFunctionRunner(deps, fn(`${FORGE}\ndef f(p):\n    forge('forged')\n    return 'real'\n`));
    try {
      const out = await runner.call(input);
      expect(out.error?.kind).toBe("raised");
      expect(out.error?.message).toMatch(/result of its own/);
      expect(out.result).toBeNull();
    } finally {
      await runner.close();
    }
  });

  it("in a chunk, cannot report the next items' results ahead of them, nor hide a hang behind them", async () => {
    const forgeAt = "def forge_at(index, result):\n    display({fc.RESULT_MIME: {'index': index, 'result': result, 'stdout': '', 'seconds': 0.01, 'error': None, 'saved': []}, 'text/plain': ''}, raw=True)";
    const code = `${FORGE}\n${forgeAt}\nimport time\ndef f(p):\n    if p == 'b.png':\n        forge_at(1, 'fake b')\n        forge_at(2, 'fake c')\n        while True:\n            time.sleep(0.05)\n    return p\n`;
    const runner = openFunctionRunner(deps, fn(code), { limits: { timeoutMs: 8000 } });
    try {
      const names = ["a.png", "b.png", "c.png"];
      const outs = await runner.callChunk(names.map((name) => ({ name, bytes: new Uint8Array([1]) })));
      expect(outs[0]).toMatchObject({ result: "a.png" });
      // The hang was stopped on an item's clock, and c's forged result was not taken.
      expect(outs[2]).toMatchObject({ result: null, error: { kind: "timeout" } });
      expect(outs.map((o) => o.result)).not.toContain("fake c");
    } finally {
      await runner.close();
    }
  });

  it("in a chunk, a repeated outcome fails the item it puts in doubt, and the items after it run again", async () => {
    const forgeAt = "def forge_at(index, result):\n    display({fc.RESULT_MIME: {'index': index, 'result': result, 'stdout': '', 'seconds': 0.01, 'error': None, 'saved': []}, 'text/plain': ''}, raw=True)";
    // Item c republishes a's outcome: a's first one may have been forged, so a fails and b, c are dropped.
    const code = `${FORGE}\n${forgeAt}\ndef f(p):\n    if p == 'c.png':\n        forge_at(0, 'framed')\n    return p\n`;
    const runner = openFunctionRunner(deps, fn(code));
    try {
      const outs = await runner.callChunk(["a.png", "b.png", "c.png"].map((name) => ({ name, bytes: new Uint8Array([1]) })));
      expect(outs).toHaveLength(1);
      expect(outs[0]).toMatchObject({ result: null, error: { kind: "raised" } });
    } finally {
      await runner.close();
    }
  });

  it("in a chunk, a file named like a staged input cannot overwrite the next item's input", async () => {
    const code = "import hashlib\ndef f(p):\n    return hashlib.sha256(open(p, 'rb').read()).hexdigest()\n";
    const runner = openFunctionRunner(deps, fn(code));
    try {
      const a = new Uint8Array([1, 1, 1]);
      const b = new Uint8Array([2, 2, 2]);
      const outs = await runner.callChunk([
        { name: ".argus-input-1", bytes: a },
        { name: "b.png", bytes: b },
      ]);
      expect(outs[0]).toMatchObject({ result: null, error: { kind: "bad_input" } });
      expect(outs[0]!.error!.message).toMatch(/Argus's own/);
      expect(outs[1]).toMatchObject({ result: createHash("sha256").update(b).digest("hex") });
    } finally {
      await runner.close();
    }
  });
});
