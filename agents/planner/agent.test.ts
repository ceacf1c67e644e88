/**
 * The planner driven step by step: scripted replies from the scripted model over HTTP through the
 * real ModelClient, hand-made cell outputs and answers, pictures in a real SQLite + blob store
 * read back by the real image preparer; no server or kernel. Which action each tool call becomes,
 * what the next request is shown, the turn budget, auto-fix, and the plan it finishes with.
 * (What each request holds in detail is memory.test.ts's.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageRef, StepResult } from "@/agents/types";
import { PlanContextSchema } from "@/lib/foundation/protocol/contexts";
import { answer, call, cell, failure, pictureStore, startStepBench, stateNote, type StepBench } from "@/tests/helpers/agent-steps";
import { PlannerAgent, type PlannerInputs } from "./agent";

let bench: StepBench;
let pictures: Awaited<ReturnType<typeof pictureStore>>;
let upload: ImageRef;
beforeAll(async () => {
  bench = await startStepBench();
  pictures = await pictureStore();
  upload = await pictures.add("#a0a0a0", 300, 200, "coins.png (upload)");
});
afterAll(async () => {
  await bench.close();
  pictures.cleanup();
});

const planner = (over: Partial<PlannerInputs> = {}) => new PlannerAgent({ task: "Count the coins.", uploads: [], maxTurns: 5, catalogue: "", ...over }, pictures.prepare);
const step = (agent: PlannerAgent, signal?: AbortSignal): Promise<StepResult> => agent.step(bench.ctx(signal));
const python = (code: string, thinking = "Look at it.", more = {}) => call("planner", "execute_python", { thinking, code }, more);
const PLAN = { plan: "Otsu threshold and label: 24 coins.", instructions: ["threshold_otsu", "label"], code: "def count(p):\n    return 24" };
const submit = (more = {}) => call("planner", "submit_plan", PLAN, more);

describe("planner: exploring", () => {
  it("execute_python becomes a run_ipython action with the code and its thinking; the uploads go with turn one", async () => {
    bench.script([python("img = load_image('coins.png')", "Load it first.", { expect: { contains: ["Count the coins.", "You have 5 turns left."], images: 1, toolNames: ["execute_python", "ask_user", "finalize_plan"] } })]);
    const res = await step(planner({ uploads: [upload] }));
    expect(res).toEqual({ action: { action: "run_ipython", args: { code: "img = load_image('coins.png')", thought: "Load it first." } }, usage: { inputTokens: 100, outputTokens: 10 } });
    expect(bench.requestsOf("planner")[0]!.status).toBe(200);
  });

  it("the next request shows the cell's output, the pictures it made (viewed first) and the turns left", async () => {
    const overlay = await pictures.add("#ff0000", 120, 80, "turn 3: view_image 1");
    const shown = await pictures.add("#00ff00", 100, 50, "turn 3: display 2");
    bench.script([python("print(len(coins))"), python("view_image(overlay)", "Check.", { expect: { contains: ["24", "Turn 2 of 5. You have 4 turns left.", 'view_image 1" 120×80'], images: 2, maxImages: 2 } })]);
    const agent = planner();
    await step(agent);
    await agent.observe(cell("planner", "print(len(coins))", "24"), { images: [shown, overlay], viewed: [overlay.fileId] });
    await step(agent);
    const text = bench.textOf(bench.requestsOf("planner")[1]!);
    expect(text.indexOf("view_image 1")).toBeLessThan(text.indexOf("display 2"));
  });

  it("ask_user becomes a question interaction; the person's answer is what the next request sees", async () => {
    bench.script([
      call("planner", "ask_user", { thinking: "Two kinds of coin.", question: "Count the small ones too?", options: ["yes", "no"] }),
      python("count()", "They said no.", { expect: { contains: "The person answered: no" } }),
    ]);
    const agent = planner();
    expect((await step(agent)).action).toEqual({ action: "interaction", args: { kind: "question", prompt: "Count the small ones too?", options: ["yes", "no"], thought: "Two kinds of coin." } });
    await agent.observe(answer("no"));
    expect((await step(agent)).action).toMatchObject({ action: "run_ipython", args: { code: "count()" } });
  });

  it("a question without options offers none", async () => {
    bench.script([call("planner", "ask_user", { thinking: "?", question: "Which coin?" })]);
    expect((await step(planner())).action).toMatchObject({ action: "interaction", args: { options: [] } });
  });

  it("ignores an observation when it is waiting for none, and one that does not answer its question", async () => {
    bench.script([call("planner", "ask_user", { thinking: "?", question: "Which coin?" }), python("x = 1", "go", { expect: { notContains: "The person answered" } })]);
    const agent = planner();
    await agent.observe(stateNote());
    await step(agent);
    await agent.observe(stateNote());
    await step(agent);
    expect(bench.model.requests.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe("planner: finishing", () => {
  it("finalize_plan writes the summary in the same step and finishes with a PlanContext", async () => {
    bench.script([call("planner", "finalize_plan", { thinking: "I know it." }), submit({ expect: { contains: "Now call submit_plan.", toolNames: ["submit_plan"] } })]);
    const agent = planner();
    const done = await step(agent);
    expect(done.action).toEqual({ action: "finish", args: { outputs: PLAN, final_thought: "Plan ready." } });
    expect(done.usage).toEqual({ inputTokens: 200, outputTokens: 20 });
    expect(PlanContextSchema.parse(done.action.action === "finish" ? done.action.args.outputs : null)).toEqual(PLAN);
    expect(agent.describeOutputs(PLAN)).toBe("Plan: Otsu threshold and label: 24 coins.");
  });

  it("when its turns are used up it goes straight to the summary, whatever the cells did", async () => {
    bench.script([python("a = 1", "one", { expect: { contains: "This is your last turn" } }), submit({ expect: { contains: "a = 1" } })]);
    const agent = planner({ maxTurns: 1 });
    await step(agent);
    await agent.observe(cell("planner", "a = 1", ""));
    expect((await step(agent)).action).toMatchObject({ action: "finish", args: { outputs: PLAN } });
    expect(bench.requestsOf("planner")).toHaveLength(2);
  });

  it("a question counts as a turn", async () => {
    bench.script([call("planner", "ask_user", { thinking: "?", question: "Which?" }), submit()]);
    const agent = planner({ maxTurns: 1 });
    await step(agent);
    await agent.observe(answer("the big one"));
    expect((await step(agent)).action.action).toBe("finish");
  });
});

describe("planner: auto-fix", () => {
  it("a failing cell is followed by a fix turn offering only execute_python, which does not use up a turn", async () => {
    bench.script([
      python("print(coinz)"),
      python("print(coins)", "Typo.", { expect: { contains: ["NameError", "fix attempt 1 of 3"] } }),
      python("next()", "Go on.", { expect: { contains: "You have 1 turn left.", notContains: "fix attempt" } }),
    ]);
    const agent = planner({ maxTurns: 2 });
    await step(agent);
    await agent.observe(cell("planner", "print(coinz)", "NameError: name 'coinz' is not defined", true));
    expect((await step(agent)).action).toMatchObject({ action: "run_ipython", args: { code: "print(coins)", thought: "Typo." } });
    expect(bench.requestsOf("planner")[1]!.tools).toEqual(["execute_python"]);
    await agent.observe(cell("planner", "print(coins)", "24"));
    await step(agent);
    expect(bench.requestsOf("planner")[2]!.tools).toEqual(["execute_python", "ask_user", "finalize_plan"]);
  });

  it("an error observation (the kernel died) is a failed cell too", async () => {
    bench.script([python("work()"), python("work()", "Again.", { expect: { contains: ["The kernel died", "fix attempt 1 of 3"] } })]);
    const agent = planner();
    await step(agent);
    await agent.observe(failure("The kernel died and was replaced; variables are gone.", "KERNEL_DIED"));
    await step(agent);
    expect(bench.requestsOf("planner")[1]!.status).toBe(200);
  });

  it("stops fixing after 3 attempts and offers every tool again", async () => {
    bench.script([
      python("bad()"),
      ...[1, 2, 3].map((n) => python("bad()", `fix ${n}`, { expect: { contains: `fix attempt ${n} of 3` } })),
      call("planner", "finalize_plan", { thinking: "Give up on it." }, { expect: { notContains: "fix attempt 4" } }),
      submit(),
    ]);
    const agent = planner();
    await step(agent);
    for (let n = 0; n < 4; n++) {
      await agent.observe(cell("planner", "bad()", `Error ${n}`, true));
      const next = await step(agent);
      if (n === 3) expect(next.action.action).toBe("finish");
    }
    expect(bench.requestsOf("planner").map((r) => r.tools?.length)).toEqual([3, 1, 1, 1, 3, 1]);
  });
});

describe("planner: model habits and stop", () => {
  it("a call named python with bare code is execute_python", async () => {
    bench.script([{ model: "planner", toolCalls: [{ name: "python", args: "print(1)" }] }]);
    expect((await step(planner())).action).toMatchObject({ action: "run_ipython", args: { code: "print(1)" } });
  });

  it("fenced code is unwrapped, and <think> text becomes the step's thought", async () => {
    bench.script([python("print(2)", "", { fence: "bare", reasoning: "Check the size first.", thinkInText: "think" })]);
    expect((await step(planner())).action).toEqual({ action: "run_ipython", args: { code: "print(2)", thought: "Check the size first." } });
  });

  it("several calls in one reply: the first is used and the next request says the rest were ignored", async () => {
    bench.script([
      { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "a", code: "a = 1" } }, { name: "finalize_plan", args: { thinking: "b" } }] },
      python("b = 2", "next", { expect: { contains: "Only your first call (execute_python) was used" } }),
    ]);
    const agent = planner();
    expect((await step(agent)).action).toMatchObject({ action: "run_ipython", args: { code: "a = 1" } });
    await agent.observe(cell("planner", "a = 1", ""));
    await step(agent);
    expect(bench.requestsOf("planner")[1]!.status).toBe(200);
  });

  it("plain text where a call is due costs one correction naming the tools; twice is a readable error quoting it", async () => {
    const chatter = { model: "planner", text: "I think there are about 20 coins." };
    bench.script([chatter, python("count()", "ok", { expect: { contains: "Call exactly one of: execute_python, ask_user, finalize_plan." } })]);
    expect((await step(planner())).action).toMatchObject({ action: "run_ipython", args: { code: "count()" } });
    bench.script([chatter, chatter]);
    await expect(step(planner())).rejects.toMatchObject({
      kind: "bad_output",
      message: expect.stringMatching(/answered in plain text instead of calling one of its tools \(execute_python, ask_user, finalize_plan\), twice in a row.*about 20 coins/),
    });
  });

  it("a reply cut at the output limit is not run: one correction asks for a shorter one", async () => {
    bench.script([python("print(1)", "x", { cutOff: true }), python("print(1)", "x", { expect: { contains: "Your reply was cut off at your output token limit" } })]);
    expect((await step(planner())).action).toMatchObject({ action: "run_ipython", args: { code: "print(1)" } });
    expect(bench.requestsOf("planner").map((r) => r.status)).toEqual([200, 200]);
  });

  it("invalid arguments are corrected at most twice, then a readable bad_output error", async () => {
    bench.script([1, 2, 3].map(() => call("planner", "execute_python", { thinking: "no code" })));
    await expect(step(planner())).rejects.toMatchObject({ kind: "bad_output", message: expect.stringMatching(/The planner model \(planner\) gave an unusable reply 3 times in a row/) });
    expect(bench.requestsOf("planner")).toHaveLength(3);
  });

  it("a cancelled step rejects as cancelled", async () => {
    bench.script([python("x")]);
    const stop = new AbortController();
    stop.abort();
    await expect(step(planner(), stop.signal)).rejects.toMatchObject({ kind: "cancelled" });
  });
});
