/**
 * The conversation agent driven step by step: scripted replies from the scripted model over HTTP
 * through the real ModelClient, hand-made observations, no server, kernel or browser. What it
 * says, which action each `reply` leads to, what it does with what comes back, and when it ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, StepResult } from "@/agents/types";
import { ModelError } from "@/lib/engines/llm/errors";
import { answer, call, delegated, failure, startStepBench, stateNote, type StepBench } from "@/tests/helpers/agent-steps";
import { ConversationAgent, type ConversationInputs } from "./agent";

let bench: StepBench;
beforeAll(async () => {
  bench = await startStepBench();
});
afterAll(() => bench.close());

const HISTORY: ConversationInputs["history"] = [{ role: "user", content: "How many coins are in this photo?", media: ["/api/files/f-coins"] }];

function agentWith(over: Partial<ConversationInputs> = {}): ConversationAgent {
  return new ConversationAgent({
    history: HISTORY,
    request: { text: "How many coins are in this photo?", uploads: ["f-coins"] },
    lastCode: null,
    canBrowse: false,
    startBatch: null,
    ...over,
  });
}

const step = (agent: Agent, signal?: AbortSignal): Promise<StepResult> => agent.step(bench.ctx(signal));
const reply = (args: Record<string, unknown>, more = {}) => call("conversation", "reply", args, more);

describe("conversation: a reply without an action", () => {
  it("says the response, then finishes with empty outputs, after one model call", async () => {
    bench.script([reply({ response: "Hello! Send me a picture." }, { expect: { contains: "PERSON: How many coins", toolNames: ["reply"] } })]);
    const agent = agentWith();
    const first = await step(agent);
    expect(first.action).toEqual({ action: "message", args: { content: "Hello! Send me a picture." } });
    expect(first.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    const second = await step(agent);
    expect(second.action).toEqual({ action: "finish", args: { outputs: {}, final_thought: "" } });
    expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(bench.requestsOf("conversation")).toHaveLength(1);
  });
});

describe("conversation: vision code", () => {
  it("delegates to the coder in plan mode with the transcript and the message's uploads, then reports the outcome and finishes", async () => {
    bench.script([
      reply({ response: "Let me count them.", action: "generate_or_edit_vision_code" }),
      reply({ response: "There are 24 coins." }, { expect: { contains: ["The vision work you started has finished", "24 coins were found"] } }),
    ]);
    const agent = agentWith();
    expect((await step(agent)).action).toEqual({ action: "message", args: { content: "Let me count them." } });
    const delegate = await step(agent);
    expect(delegate.action).toEqual({
      action: "delegate",
      args: { agent: "coder", thought: "This needs vision code.", inputs: { mode: "plan", task: "PERSON: How many coins are in this photo? [attached: 1 file(s)]", uploads: ["f-coins"] } },
    });
    expect(bench.requestsOf("conversation")).toHaveLength(1);
    await agent.observe(delegated("conversation", "24 coins were found.", { success: true }));
    expect((await step(agent)).action).toEqual({ action: "message", args: { content: "There are 24 coins." } });
    expect((await step(agent)).action.action).toBe("finish");
    expect(bench.model.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it("edit_code hands the coder the last code, its test and the person's words", async () => {
    bench.script([reply({ response: "Changing the output.", action: "edit_code" })]);
    const agent = agentWith({ request: { text: "return a dict instead", uploads: [] }, lastCode: { code: "from argus import *\ndef f(p): return 1", test: "print(f('a.png'))" } });
    await step(agent);
    expect((await step(agent)).action).toEqual({
      action: "delegate",
      args: { agent: "coder", thought: "A small change to the existing code.", inputs: { mode: "edit", feedback: "return a dict instead", code: "from argus import *\ndef f(p): return 1", test: "print(f('a.png'))", uploads: [] } },
    });
  });

  it("edit_code with no code written yet plans from scratch", async () => {
    bench.script([reply({ response: "Sure.", action: "edit_code" })]);
    const agent = agentWith();
    await step(agent);
    const action = (await step(agent)).action;
    expect(action.action === "delegate" && action.args.inputs.mode).toBe("plan");
  });

  it("ignores observations that do not answer its delegation", async () => {
    bench.script([reply({ response: "Counting.", action: "generate_or_edit_vision_code" })]);
    const agent = agentWith();
    await step(agent);
    await agent.observe(stateNote());
    await agent.observe(failure("a stray error"));
    expect((await step(agent)).action.action).toBe("delegate");
  });
});

describe("conversation: run_on_all_images", () => {
  it("starts the batch and says what it did, without a second model call, then finishes", async () => {
    bench.script([reply({ response: "Running it on all of them.", action: "run_on_all_images" })]);
    let started = 0;
    const agent = agentWith({ startBatch: async () => `Started batch ${++started}.` });
    await step(agent);
    expect(await step(agent)).toEqual({ action: { action: "message", args: { content: "Started batch 1." } }, usage: { inputTokens: 0, outputTokens: 0 } });
    expect((await step(agent)).action.action).toBe("finish");
    expect(started).toBe(1);
    expect(bench.requestsOf("conversation")).toHaveLength(1);
  });

  it("says plainly that batches cannot run where there are no kernels", async () => {
    bench.script([reply({ response: "Running it.", action: "run_on_all_images" })]);
    const agent = agentWith({ startBatch: null });
    await step(agent);
    expect((await step(agent)).action).toEqual({ action: "message", args: { content: "Batch runs are not available on this server (it runs without Python kernels)." } });
  });
});

describe("conversation: browsing", () => {
  const browse = { response: "I'll look.", action: "browse", url: "http://shop.test/", browse_task: "Find the product photo." };

  it("offers browse only when a browser model is configured", async () => {
    bench.script([reply({ response: "Hi." }, { expect: { notContains: "You can also browse" } }), reply({ response: "Hi." }, { expect: { contains: "You can also browse" } })]);
    await step(agentWith({ canBrowse: false }));
    await step(agentWith({ canBrowse: true }));
    expect(bench.model.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it("delegates to the browser; pictures it saved lead to one more call that may start vision code on them", async () => {
    bench.script([
      reply(browse),
      reply({ response: "Now counting the coins in it.", action: "generate_or_edit_vision_code" }, { expect: { contains: ["The browser agent has finished", "Saved product.png"] } }),
      reply({ response: "There are 7 coins." }, { expect: { contains: "The vision work you started has finished" } }),
    ]);
    const agent = agentWith({ canBrowse: true });
    await step(agent);
    expect((await step(agent)).action).toEqual({ action: "delegate", args: { agent: "browser", thought: "This needs a web page.", inputs: { task: "Find the product photo.", url: "http://shop.test/" } } });
    await agent.observe(delegated("conversation", "Browser: Saved product.png", { answer: "found it", images: [{ id: "f-saved", name: "product.png", url: "/files/f-saved" }] }));
    expect((await step(agent)).action).toEqual({ action: "message", args: { content: "Now counting the coins in it." } });
    const coder = (await step(agent)).action;
    expect(coder.action).toBe("delegate");
    if (coder.action !== "delegate") return;
    expect(coder.args.agent).toBe("coder");
    expect(coder.args.inputs).toMatchObject({ mode: "plan", uploads: ["f-saved"] });
    expect(coder.args.inputs.task).toContain("The browser saved these pictures for you: Browser: Saved product.png");
    await agent.observe(delegated("conversation", "7 coins.", {}));
    expect((await step(agent)).action).toEqual({ action: "message", args: { content: "There are 7 coins." } });
    expect((await step(agent)).action.action).toBe("finish");
  });

  it("a browse that saved nothing is reported, with no further action", async () => {
    bench.script([reply(browse), reply({ response: "The page has no photo." }, { expect: { contains: "The vision work you started has finished" } })]);
    const agent = agentWith({ canBrowse: true });
    await step(agent);
    await step(agent);
    await agent.observe(delegated("conversation", "Browser: no photo there.", { answer: "no photo there." }));
    expect((await step(agent)).action).toEqual({ action: "message", args: { content: "The page has no photo." } });
    expect((await step(agent)).action.action).toBe("finish");
  });

  it("a browse without its url is corrected once, and the corrected call is used", async () => {
    bench.script([reply({ response: "I'll look.", action: "browse", browse_task: "Find it." }), reply(browse, { expect: { contains: "url" } })]);
    const agent = agentWith({ canBrowse: true });
    const said = await step(agent);
    expect(said.usage).toEqual({ inputTokens: 200, outputTokens: 20 });
    expect((await step(agent)).action).toMatchObject({ action: "delegate", args: { agent: "browser", inputs: { url: "http://shop.test/" } } });
  });
});

describe("conversation: model habits and failures", () => {
  it("reads a reply called by a trained-on name (final_answer)", async () => {
    bench.script([reply({ response: "Hello." }, { callAs: "final_answer" })]);
    expect((await step(agentWith())).action).toEqual({ action: "message", args: { content: "Hello." } });
  });

  it("never puts <think> text into what the person is told", async () => {
    bench.script([reply({ response: "Hello." }, { reasoning: "The person greets me.", thinkInText: "think" })]);
    expect((await step(agentWith())).action).toEqual({ action: "message", args: { content: "Hello." } });
  });

  it("plain text instead of a call costs one correction; twice is a readable bad_output error", async () => {
    bench.script([{ model: "conversation", text: "Hi there!" }, reply({ response: "Hi there!" }, { expect: { contains: "reply" } })]);
    expect((await step(agentWith())).action).toEqual({ action: "message", args: { content: "Hi there!" } });
    bench.script([
      { model: "conversation", text: "Hi there!" },
      { model: "conversation", text: "Hello again!" },
    ]);
    const error = await step(agentWith()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: "bad_output", message: expect.stringContaining("answered in plain text instead of calling one of its tools (reply), twice in a row") });
  });

  it("a transient server error is retried inside the step; a bad key is a readable auth error, not retried", async () => {
    bench.script([reply({ response: "Hello." }, { fault: { status: 500, times: 1 } })]);
    expect((await step(agentWith())).action).toEqual({ action: "message", args: { content: "Hello." } });
    expect(bench.model.requests.map((r) => r.status)).toEqual([500, 200]);
    bench.script([reply({ response: "Hello." }, { fault: { status: 401, code: "invalid_api_key" } })]);
    await expect(step(agentWith())).rejects.toMatchObject({ kind: "auth" });
    expect(bench.model.requests).toHaveLength(1);
  });

  it("a cancelled step rejects as cancelled and takes no turn", async () => {
    bench.script([reply({ response: "never sent" })]);
    const stop = new AbortController();
    stop.abort();
    const error = await step(agentWith(), stop.signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "cancelled" });
    expect(bench.model.remaining()).toEqual({ conversation: 1 });
  });

  it("an answer from the person is not an outcome: it does not end the delegation early", async () => {
    bench.script([reply({ response: "Counting.", action: "generate_or_edit_vision_code" })]);
    const agent = agentWith();
    await step(agent);
    await agent.observe(answer("the big ones"));
    expect((await step(agent)).action.action).toBe("delegate");
  });
});
