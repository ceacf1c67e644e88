/**
 * The coder driven step by step: scripted replies from the scripted model over HTTP through the
 * real ModelClient, hand-made planner results and cell outputs, no server or kernel. Which action
 * each phase emits, how a failing test is debugged (at most 3 times), and the CodeContext it
 * finishes with.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StepResult } from "@/agents/types";
import { CodeContextSchema } from "@/lib/foundation/protocol/contexts";
import { call, cell, delegated, failure, startStepBench, stateNote, type StepBench } from "@/tests/helpers/agent-steps";
import { CoderAgent, type CoderInputs } from "./agent";

let bench: StepBench;
beforeAll(async () => {
  bench = await startStepBench();
});
afterAll(() => bench.close());

const PRELUDE = "from argus import *\n";
const PLAN = { plan: "Threshold and label the coins: 24 coins.", instructions: ["load_image", "threshold_otsu", "label"], code: "def count(p):\n    return 24" };
const CODE = "def count_coins(path):\n    return 24";
const TEST = "print(count_coins('coins.png'))";

const planned = (over: Partial<Extract<CoderInputs, { mode: "plan" }>> = {}) =>
  new CoderAgent({ mode: "plan", task: "PERSON: count the coins", uploads: ["f-coins"], files: ["coins.png"], catalogue: "", ...over });
const step = (agent: CoderAgent, signal?: AbortSignal): Promise<StepResult> => agent.step(bench.ctx(signal));
const write = (code = CODE, more = {}) => call("coder", "write_code", { code }, more);
const writeTest = (test = TEST, more = {}) => call("coder", "write_test", { test }, more);
const fix = (args: Record<string, unknown>, more = {}) => call("coder", "fix_code", args, more);
const runCode = (code: string, test: string) => `${PRELUDE}${code}\n\n# --- test ---\n${test}`;

/** Plans (delegation answered with PLAN), then writes CODE and TEST: the agent is waiting for its first test run. */
async function written(agent = planned()): Promise<CoderAgent> {
  await step(agent);
  await agent.observe(delegated("coder", "Plan: …", PLAN));
  await step(agent);
  return agent;
}

describe("coder: plan mode", () => {
  it("first delegates to the planner with the task and uploads, without calling its model", async () => {
    bench.script([write()]);
    expect(await step(planned())).toEqual({
      action: { action: "delegate", args: { agent: "planner", thought: "Explore the images first.", inputs: { task: "PERSON: count the coins", uploads: ["f-coins"] } } },
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(bench.model.requests).toHaveLength(0);
  });

  it("writes the function from the plan, then its test, and runs both behind the prelude", async () => {
    bench.script([
      write(CODE, { expect: { contains: ["Plan:\nThreshold and label the coins", "1. load_image", "Code from the planner", "Files in the current directory: coins.png", "Write the function with write_code."], toolNames: ["write_code"] } }),
      writeTest(TEST, { expect: { contains: ["return 24", "Now write its test with write_test."], toolNames: ["write_test"] } }),
    ]);
    const agent = planned();
    await step(agent);
    await agent.observe(delegated("coder", "Plan: …", PLAN));
    const run = await step(agent);
    expect(run.action).toEqual({ action: "run_ipython", args: { code: runCode(CODE, TEST), thought: "Testing the function in a fresh kernel." } });
    expect(run.usage).toEqual({ inputTokens: 200, outputTokens: 20 });
  });

  it("finishes with a successful CodeContext once the test runs cleanly", async () => {
    bench.script([write(), writeTest()]);
    const agent = await written();
    await agent.observe(cell("coder", runCode(CODE, TEST), "24"));
    const done = await step(agent);
    expect(done.action.action).toBe("finish");
    if (done.action.action !== "finish") return;
    const outputs = CodeContextSchema.parse(done.action.args.outputs);
    expect(outputs).toMatchObject({ code: `${PRELUDE}${CODE}`, test: TEST, success: true, testResult: "24" });
    expect(outputs.summary).toMatch(/^The function ran its test successfully\.\n\nFinal code:\n```python\ndef count_coins/);
    expect(done.action.args.final_thought).toBe("Code ready.");
    expect(agent.describeOutputs(done.action.args.outputs)).toBe(outputs.summary);
    expect(bench.requestsOf("coder")).toHaveLength(2);
  });

  it("a planner that returns no plan ends the coder with its reason, unrun", async () => {
    const agent = planned();
    await step(agent);
    await agent.observe(delegated("coder", "planner failed", { error: "The planner model is unreachable." }));
    const done = await step(agent);
    expect(done.action.action === "finish" && done.action.args.outputs).toMatchObject({ success: false, summary: "The code could not be produced: The planner model is unreachable.", testResult: "" });
    const other = planned();
    await step(other);
    await other.observe(delegated("coder", "", {}));
    const empty = await step(other);
    expect(empty.action.action === "finish" && empty.action.args.outputs.summary).toBe("The code could not be produced: the planner returned no plan");
  });
});

describe("coder: debugging", () => {
  it("a failing test is fixed with fix_code, shown the code, the test and the failure; only what changed is replaced", async () => {
    bench.script([
      write(),
      writeTest(),
      fix({ thoughts: "The test used the wrong file name.", test: "print(count_coins('coins.png'))  # fixed" }, { expect: { contains: ["Running them failed:\nFileNotFoundError: c.png", "attempt 1 of 3"], toolNames: ["fix_code"] } }),
    ]);
    const agent = await written();
    await agent.observe(cell("coder", runCode(CODE, TEST), "FileNotFoundError: c.png", true));
    const again = await step(agent);
    expect(again.action).toEqual({ action: "run_ipython", args: { code: runCode(CODE, "print(count_coins('coins.png'))  # fixed"), thought: "The test used the wrong file name." } });
    await agent.observe(cell("coder", "", "24"));
    const done = await step(agent);
    expect(done.action.action === "finish" && done.action.args.outputs).toMatchObject({ success: true, test: "print(count_coins('coins.png'))  # fixed", code: `${PRELUDE}${CODE}` });
  });

  it("an error observation (the kernel died) is a failed run too", async () => {
    bench.script([write(), writeTest(), fix({ thoughts: "Retry.", code: "def count_coins(path):\n    return 25" }, { expect: { contains: "The kernel died" } })]);
    const agent = await written();
    await agent.observe(failure("The kernel died while running the cell.", "KERNEL_DIED"));
    const again = await step(agent);
    expect(again.action).toMatchObject({ action: "run_ipython", args: { code: runCode("def count_coins(path):\n    return 25", TEST) } });
  });

  it("gives up after 3 fixes and finishes unsuccessful, with the last output", async () => {
    bench.script([write(), writeTest(), ...[1, 2, 3].map((n) => fix({ thoughts: `try ${n}`, code: `def count_coins(path):\n    return ${n}` }, { expect: { contains: `attempt ${n} of 3` } }))]);
    const agent = await written();
    for (let n = 0; n < 4; n++) {
      await agent.observe(cell("coder", "", `AssertionError ${n}`, true));
      const next = await step(agent);
      if (n < 3) expect(next.action).toMatchObject({ action: "run_ipython", args: { thought: `try ${n + 1}` } });
      else {
        expect(next.action.action).toBe("finish");
        if (next.action.action !== "finish") return;
        expect(next.action.args.outputs).toMatchObject({ success: false, code: `${PRELUDE}def count_coins(path):\n    return 3`, testResult: "AssertionError 3" });
        expect(next.action.args.outputs.summary).toMatch(/^The function still failed its test after 3 fixes\./);
        expect(next.action.args.final_thought).toBe("Code failed.");
      }
    }
    expect(bench.requestsOf("coder")).toHaveLength(5);
  });

  it("ignores observations that are not a run of its code", async () => {
    bench.script([write(), writeTest()]);
    const agent = await written();
    await agent.observe(stateNote());
    await agent.observe(cell("coder", "", "24"));
    expect((await step(agent)).action).toMatchObject({ action: "finish", args: { outputs: { success: true } } });
  });
});

describe("coder: edit mode", () => {
  it("starts writing at once from the person's request and the stored code (prelude not doubled)", async () => {
    bench.script([
      write("def count_coins(path):\n    return {'coins': 24}", { expect: { contains: ["Request: return a dict", "Current code:\n```python\nfrom argus import *\ndef count_coins", "Current test:", "Files in the current directory: coins.png"] } }),
      writeTest(),
    ]);
    const agent = new CoderAgent({ mode: "edit", feedback: "return a dict", code: `${PRELUDE}${CODE}`, test: TEST, files: ["coins.png"], catalogue: "" });
    const run = await step(agent);
    expect(run.action).toEqual({ action: "run_ipython", args: { code: runCode("def count_coins(path):\n    return {'coins': 24}", TEST), thought: "Testing the function in a fresh kernel." } });
  });

  it("an edit whose run fails is debugged from the stored code when the fix sends only a test", async () => {
    bench.script([write(CODE), writeTest(), fix({ thoughts: "Only the test was wrong.", test: "print(1)" })]);
    const agent = new CoderAgent({ mode: "edit", feedback: "x", code: `${PRELUDE}${CODE}`, test: TEST, files: [], catalogue: "the catalogue section" });
    await step(agent);
    await agent.observe(cell("coder", "", "boom", true));
    expect((await step(agent)).action).toMatchObject({ args: { code: runCode(CODE, "print(1)") } });
  });
});

describe("coder: model habits and stop", () => {
  it("unwraps code and a test sent in markdown fences", async () => {
    bench.script([write(CODE, { fence: "python" }), writeTest(TEST, { fence: "sentence" })]);
    const agent = await written();
    expect(bench.model.requests.map((r) => r.status)).toEqual([200, 200]);
    await agent.observe(cell("coder", "", "24"));
    const done = await step(agent);
    expect(done.action.action === "finish" && done.action.args.outputs).toMatchObject({ code: `${PRELUDE}${CODE}`, test: TEST });
  });

  it("reads arguments encoded twice or written as loose JSON without a correction", async () => {
    bench.script([write(CODE, { argumentsAs: "double_encoded" }), writeTest(TEST, { argumentsAs: "loose" })]);
    const agent = planned();
    await step(agent);
    await agent.observe(delegated("coder", "", PLAN));
    expect((await step(agent)).action).toMatchObject({ args: { code: runCode(CODE, TEST) } });
    expect(bench.requestsOf("coder")).toHaveLength(2);
  });

  it("a write_code reply cut at the output limit is not used: one correction, then the whole call", async () => {
    bench.script([write(CODE, { cutOff: true }), write(CODE), writeTest()]);
    const agent = planned();
    await step(agent);
    await agent.observe(delegated("coder", "", PLAN));
    const run = await step(agent);
    expect(run.action).toMatchObject({ args: { code: runCode(CODE, TEST) } });
    expect(bench.requestsOf("coder")).toHaveLength(3);
  });

  it("a cancelled step rejects as cancelled", async () => {
    bench.script([write()]);
    const agent = planned();
    await step(agent);
    await agent.observe(delegated("coder", "", PLAN));
    const stop = new AbortController();
    stop.abort();
    await expect(step(agent, stop.signal)).rejects.toMatchObject({ kind: "cancelled" });
  });
});
