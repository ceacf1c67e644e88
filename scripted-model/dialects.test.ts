/**
 * The scripted model speaking like the real servers Argus meets, over real HTTP: each dialect
 * streaming and not, the wire knobs, pacing, and calls written as text when no tools are
 * offered. The dialects the AI SDK must parse are also fed to the real client the product uses.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { jsonSchema, streamText, tool, type TextStreamPart, type ToolSet } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedModel, type Dialect, type Scenario, type ScriptedModel, type Turn } from "./server";
import { renderHermesCall, renderProtocolCall } from "./text-calls";

const servers: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(turns: Turn[], dialect?: Dialect, scenarioDialect?: Dialect): Promise<ScriptedModel> {
  const scenario: Scenario = { name: "dialects", turns, ...(scenarioDialect ? { dialect: scenarioDialect } : {}) };
  const server = await startScriptedModel(scenario, dialect ? { dialect } : {});
  servers.push(server);
  return server;
}

const TOOLS = [{ type: "function", function: { name: "execute_python", parameters: {} } }];
const call: Turn = { model: "planner", text: "Looking.", toolCalls: [{ name: "execute_python", args: { thinking: "t", code: "print(1)" } }] };

async function post(server: ScriptedModel, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}
const request = (extra: Record<string, unknown> = {}) => ({ model: "planner", messages: [{ role: "user", content: "go" }], ...extra });

type Delta = { content?: string; reasoning?: string; reasoning_content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: unknown } }[] };
async function chunks(response: Response): Promise<{ deltas: Delta[]; finish: string | null }> {
  const text = await response.text();
  const data = text.split("\n\n").filter((e) => e.startsWith("data: ") && !e.includes("[DONE]")).map((e) => JSON.parse(e.slice(6)) as { choices: { delta: Delta; finish_reason: string | null }[] });
  const choices = data.flatMap((d) => d.choices);
  return { deltas: choices.map((c) => c.delta), finish: choices.map((c) => c.finish_reason).find((f) => f !== null) ?? null };
}

describe("calls written as text", () => {
  it("protocol tags: thinking first, then the other fields as JSON; no fields is self-closing", () => {
    expect(renderProtocolCall({ name: "execute_python", args: { thinking: "why", code: "x" } })).toBe('<thinking>why</thinking>\n<execute_python>\n{"code":"x"}\n</execute_python>');
    expect(renderProtocolCall({ name: "finalize_plan", args: { thinking: "done" } })).toBe("<thinking>done</thinking>\n<finalize_plan/>");
    expect(renderProtocolCall({ name: "fix_code", args: '{"broken' })).toBe('<fix_code>\n{"broken\n</fix_code>');
    expect(renderHermesCall({ name: "f", args: { a: 1 } })).toBe('<tool_call>\n{"name": "f", "arguments": {"a":1}}\n</tool_call>');
  });

  it("a request without tools gets the turn's calls as protocol tags in the content, in every dialect", async () => {
    for (const dialect of ["openai", "ollama", "vllm-hermes", "no-tools"] as const) {
      const server = await start([call], dialect);
      const body = (await (await post(server, request())).json()) as { choices: { message: { content: string; tool_calls?: unknown }; finish_reason: string }[] };
      expect(body.choices[0]!.message.content, dialect).toBe('Looking.\n<thinking>t</thinking>\n<execute_python>\n{"code":"print(1)"}\n</execute_python>');
      expect(body.choices[0]!.message.tool_calls).toBeUndefined();
      expect(body.choices[0]!.finish_reason).toBe("stop");
    }
  });
});

describe("dialects with tools offered", () => {
  it("vllm-hermes writes the calls in the content as <tool_call> blocks, streaming and not", async () => {
    const server = await start([call, call], "vllm-hermes");
    const whole = (await (await post(server, request({ tools: TOOLS }))).json()) as { choices: { message: { content: string; tool_calls?: unknown }; finish_reason: string }[] };
    expect(whole.choices[0]!.message.content).toBe('Looking.\n<tool_call>\n{"name": "execute_python", "arguments": {"thinking":"t","code":"print(1)"}}\n</tool_call>');
    expect(whole.choices[0]!.message.tool_calls).toBeUndefined();
    const streamed = await chunks(await post(server, request({ tools: TOOLS, stream: true })));
    expect(streamed.deltas.map((d) => d.content ?? "").join("")).toBe(whole.choices[0]!.message.content);
    expect(streamed.finish).toBe("stop");
  });

  it("ollama sends each call whole in one chunk, with call_xxxxxxxx ids and finish_reason stop", async () => {
    const server = await start([{ ...call, reasoning: "hmm" }, call], "ollama");
    const streamed = await chunks(await post(server, request({ tools: TOOLS, stream: true })));
    const calls = streamed.deltas.flatMap((d) => d.tool_calls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
    expect(calls[0]!.function).toEqual({ name: "execute_python", arguments: '{"thinking":"t","code":"print(1)"}' });
    expect(streamed.finish).toBe("stop");
    expect(streamed.deltas.map((d) => d.reasoning ?? "").join("")).toBe("hmm");
    expect(streamed.deltas.some((d) => d.reasoning_content !== undefined)).toBe(false);
    const whole = (await (await post(server, request({ tools: TOOLS }))).json()) as { choices: { finish_reason: string }[] };
    expect(whole.choices[0]!.finish_reason).toBe("stop");
  });

  it("no-tools refuses any request carrying tools with Ollama's 400, without using the turn", async () => {
    const server = await start([call], "no-tools");
    const refused = await post(server, request({ tools: TOOLS }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { message: "registry.ollama.ai/library/planner:latest does not support tools", type: "invalid_request_error", param: null, code: null } });
    expect(server.remaining()).toEqual({ planner: 1 });
    const answered = (await (await post(server, request())).json()) as { choices: { message: { content: string } }[] };
    expect(answered.choices[0]!.message.content).toContain("<execute_python>");
    expect(server.requests.map((r) => [r.status, r.tools?.length ?? 0])).toEqual([[400, 1], [200, 0]]);
  });

  it("a scenario's dialect wins over the option, and /__scenario can switch it", async () => {
    const server = await start([call], "openai", "no-tools");
    expect((await post(server, request({ tools: TOOLS }))).status).toBe(400);
    const state = (await (await fetch(server.url.replace(/\/v1$/, "/__state"))).json()) as { dialect: string };
    expect(state.dialect).toBe("no-tools");
    const swapped = await fetch(server.url.replace(/\/v1$/, "/__scenario"), { method: "POST", body: JSON.stringify({ name: "x", dialect: "vllm-hermes", turns: [call] }) });
    expect(((await swapped.json()) as { dialect: string }).dialect).toBe("vllm-hermes");
  });
});

describe("wire knobs", () => {
  it("argumentsAsObject, omitCallIds, argumentChunks and reasoning_content", async () => {
    const server = await start([
      { ...call, wire: { argumentsAsObject: true }, reasoning: "because" },
      { ...call, wire: { omitCallIds: true, argumentChunks: 34 } },
    ]);
    const first = await chunks(await post(server, request({ tools: TOOLS, stream: true })));
    expect(first.deltas.flatMap((d) => d.tool_calls ?? [])[0]!.function.arguments).toEqual({ thinking: "t", code: "print(1)" });
    expect(first.deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("because");
    const second = await chunks(await post(server, request({ tools: TOOLS, stream: true })));
    const deltas = second.deltas.flatMap((d) => d.tool_calls ?? []);
    expect(deltas.every((d) => d.id === undefined)).toBe(true);
    // 34 characters of arguments, one per chunk.
    expect(deltas.filter((d) => d.function.name === undefined)).toHaveLength(34);
    expect(deltas.map((d) => d.function.arguments ?? "").join("")).toBe('{"thinking":"t","code":"print(1)"}');
  });

  it("a paced turn logs when each chunk of output was written", async () => {
    const server = await start([{ model: "planner", text: "abcdefghij", stream: { chunkChars: 3, delayMs: 5 } }]);
    const streamed = await chunks(await post(server, request({ stream: true })));
    expect(streamed.deltas.map((d) => d.content).filter(Boolean)).toEqual(["abc", "def", "ghi", "j"]);
    const times = server.requests[0]!.chunkTimes!;
    expect(times).toHaveLength(4);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

describe("the real AI SDK client reads each dialect's calls", () => {
  async function sdkCalls(server: ScriptedModel): Promise<{ name: string; input: unknown }[]> {
    const provider = createOpenAICompatible({ name: "t", baseURL: server.url, includeUsage: true });
    const result = streamText({
      model: provider.chatModel("planner"),
      messages: [{ role: "user", content: "go" }],
      tools: { execute_python: tool({ inputSchema: jsonSchema({ type: "object" }) }) } as ToolSet,
      maxRetries: 0,
      onError: () => {},
    });
    const calls: { name: string; input: unknown }[] = [];
    for await (const part of result.fullStream as AsyncIterable<TextStreamPart<ToolSet>>) {
      if (part.type === "error") throw part.error;
      if (part.type === "tool-call") calls.push({ name: part.toolName, input: part.input });
    }
    return calls;
  }

  it("openai, ollama, and split arguments without ids ending in 'stop'", async () => {
    const expected = [{ name: "execute_python", input: { thinking: "t", code: "print(1)" } }];
    expect(await sdkCalls(await start([call], "openai"))).toEqual(expected);
    expect(await sdkCalls(await start([call], "ollama"))).toEqual(expected);
    expect(await sdkCalls(await start([{ ...call, wire: { omitCallIds: true, argumentChunks: 40 }, finishReason: "stop" }], "openai"))).toEqual(expected);
  });
});

describe("model habits on the wire", () => {
  it("a fenced, cut-off call streams half its arguments and finish_reason length; <think> goes in the content", async () => {
    const server = await start([{ ...call, fence: "python", thinkInText: "think", cutOff: true }]);
    const { deltas, finish } = await chunks(await post(server, request({ stream: true, tools: TOOLS })));
    expect(finish).toBe("length");
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("<think>\nt\n</think>\n\nLooking.");
    const args = deltas.flatMap((d) => d.tool_calls ?? []).map((c) => c.function.arguments ?? "").join("");
    const whole = JSON.stringify({ thinking: "t", code: "```python\nprint(1)\n```" });
    expect(args).toBe(whole.slice(0, Math.ceil(whole.length / 2)));
  });

  it("double-encoded arguments and another tool name go out as the turn asks", async () => {
    const server = await start([{ ...call, argumentsAs: "double_encoded", callAs: "python" }]);
    const body = (await (await post(server, request({ tools: TOOLS }))).json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
    const fn = body.choices[0]!.message.tool_calls[0]!.function;
    expect(fn.name).toBe("python");
    expect(JSON.parse(JSON.parse(fn.arguments) as string)).toEqual({ thinking: "t", code: "print(1)" });
  });
});
