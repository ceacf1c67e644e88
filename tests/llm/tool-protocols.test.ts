/**
 * The two tool protocols and what real endpoints send, through ModelClient against the scripted
 * model over HTTP (the real AI SDK provider parses every reply). Native calls, calls written as
 * text (tags, Hermes blocks, fenced JSON), auto switching, and the corrections when a model
 * mixes them up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ModelError } from "@/lib/engines/llm/errors";
import { ModelClient, type ModelClientOptions, type ToolSpecs } from "@/lib/engines/llm/models";
import type { ToolProtocolSetting } from "@/lib/foundation/config";
import { startScriptedModel, type ScriptedModel, type Turn } from "@/scripted-model/server";

const byRole = { conversation: "conversation", planner: "planner", coder: "coder", vqa: "vqa", judge: "judge" };
const fast: ModelClientOptions = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000, maxRetries: 1, random: () => 0.5 };

const tools = {
  execute_python: { description: "Run Python.", schema: z.object({ thinking: z.string(), code: z.string().min(1) }) },
  ask_user: {
    description: "Ask the person.",
    schema: z.object({ thinking: z.string(), question: z.string().min(1), options: z.array(z.string()).optional() }),
  },
  finalize_plan: { description: "Stop exploring.", schema: z.object({ thinking: z.string() }) },
} satisfies ToolSpecs;

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(turns: Turn[], protocol?: ToolProtocolSetting) {
  server = await startScriptedModel({ name: "tool-protocols.test", turns });
  const log: string[] = [];
  const client = new ModelClient(
    { apiKey: null, baseUrl: server.url, byRole, ...(protocol ? { protocolByRole: { planner: protocol } } : {}) },
    { ...fast, log: (line) => log.push(line) },
  );
  return { server, client, log };
}

const plan = (client: ModelClient) =>
  client.callTool("planner", {
    system: "You are the planner.",
    messages: [{ role: "user", content: "How many coins?" }],
    tools,
    signal: new AbortController().signal,
  });

const systemOf = (s: ScriptedModel, i: number): string => {
  const first = s.requests[i]!.messages[0] as { role: string; content: unknown };
  return first.role === "system" ? String(first.content) : "";
};

describe("native protocol: what real endpoints send", () => {
  it("content beside the call is the step's thinking", async () => {
    const { client } = await setup([{ model: "planner", text: "Coins are round, so circles.", toolCalls: [{ name: "execute_python", args: { thinking: "t", code: "1" } }] }]);
    const res = await plan(client);
    expect(res).toMatchObject({ name: "execute_python", thinking: "Coins are round, so circles.", protocol: "native" });
  });

  it("several calls: the first is used, and the notice says which were ignored", async () => {
    const { client } = await setup([
      {
        model: "planner",
        toolCalls: [
          { name: "execute_python", args: { thinking: "a", code: "1" } },
          { name: "finalize_plan", args: { thinking: "b" } },
          { name: "ask_user", args: { thinking: "c", question: "?" } },
        ],
      },
    ]);
    const res = await plan(client);
    expect(res.name).toBe("execute_python");
    expect(res.attempts).toBe(1);
    expect(res.notice).toBe("Only your first call (execute_python) was used; the other 2 (finalize_plan, ask_user) were ignored. Make one call per reply.");
  });

  it("finish_reason 'stop' with a tool call still counts as the call", async () => {
    const { client } = await setup([{ model: "planner", finishReason: "stop", toolCalls: [{ name: "finalize_plan", args: { thinking: "done" } }] }]);
    expect(await plan(client)).toMatchObject({ name: "finalize_plan", args: { thinking: "done" } });
  });

  it("arguments sent as a JSON object instead of a string are accepted", async () => {
    const { client } = await setup([{ model: "planner", wire: { argumentsAsObject: true }, toolCalls: [{ name: "execute_python", args: { thinking: "t", code: "print(3)" } }] }]);
    expect(await plan(client)).toMatchObject({ name: "execute_python", args: { code: "print(3)" }, attempts: 1 });
  });

  it("arguments split over many chunks, with no call ids", async () => {
    const code = "import numpy as np\n" + "x = np.zeros((4, 4))\n".repeat(20);
    const { client } = await setup([{ model: "planner", wire: { omitCallIds: true, argumentChunks: 200 }, toolCalls: [{ name: "execute_python", args: { thinking: "t", code } }] }]);
    expect(await plan(client)).toMatchObject({ name: "execute_python", args: { code } });
  });

  it("reasoning_content is the step's thinking and never read as the answer", async () => {
    const { client } = await setup([
      { model: "planner", reasoning: "<finalize_plan/> would be premature; look first.", toolCalls: [{ name: "execute_python", args: { thinking: "", code: "1" } }] },
    ]);
    const res = await plan(client);
    expect(res).toMatchObject({ name: "execute_python", thinking: "<finalize_plan/> would be premature; look first.", protocol: "native" });
  });

  it("Ollama's wire: whole calls in one chunk, finish_reason stop, reasoning in `reasoning`", async () => {
    const { client, server } = await setup([{ model: "planner", reasoning: "small coins too", toolCalls: [{ name: "finalize_plan", args: { thinking: "24" } }] }]);
    server.load({ ...server.scenario, dialect: "ollama" });
    expect(await plan(client)).toMatchObject({ name: "finalize_plan", args: { thinking: "24" }, thinking: "small coins too" });
  });

  it("a Hermes <tool_call> in content is read as the call (vLLM without a tool parser)", async () => {
    const { client, server, log } = await setup(
      [
        { model: "planner", text: 'Let me look.\n<tool_call>\n{"name": "execute_python", "arguments": {"thinking": "t", "code": "print(2)"}}\n</tool_call>' },
      ],
      "native",
    );
    const res = await plan(client);
    expect(res).toMatchObject({ name: "execute_python", args: { code: "print(2)" }, thinking: "Let me look.", protocol: "native" });
    expect(server.requests).toHaveLength(1);
    expect(log).toEqual([]);
  });

  it("a fenced JSON call in content is read as the call", async () => {
    const { client } = await setup([{ model: "planner", text: 'I am done.\n```json\n{"name": "finalize_plan", "arguments": {"thinking": "24 coins"}}\n```' }], "native");
    expect(await plan(client)).toMatchObject({ name: "finalize_plan", args: { thinking: "24 coins" } });
  });
});

describe("text protocol", () => {
  it("sends no tools, describes them in the system prompt, and reads the tags back", async () => {
    const { client, server } = await setup(
      [{ model: "planner", text: "<thinking>Find circles.</thinking>\n<execute_python>\n```python\nimport cv2\nprint(len([1, 2]) > 1)\n```\n</execute_python>" }],
      "text",
    );
    const res = await plan(client);
    expect(res).toMatchObject({ name: "execute_python", args: { thinking: "Find circles.", code: "import cv2\nprint(len([1, 2]) > 1)" }, protocol: "text" });
    expect(server.requests[0]!.tools).toBeUndefined();
    const system = systemOf(server, 0);
    expect(system).toMatch(/^You are the planner\.\n\n## How to answer/);
    expect(system).toContain("<execute_python>\n…code…\n</execute_python>");
  });

  it("a reply without a tag is corrected in the protocol's words, then used", async () => {
    const { client, server } = await setup(
      [
        { model: "planner", text: "There are 24 coins." },
        { model: "planner", text: "<thinking>Right.</thinking><finalize_plan/>" },
      ],
      "text",
    );
    const res = await plan(client);
    expect(res).toMatchObject({ name: "finalize_plan", attempts: 2 });
    const correction = server.requests[1]!.messages.at(-1) as { content: string };
    expect(correction.content).toBe(
      "Your reply had no action tag. Write your reasoning in <thinking>…</thinking>, then exactly one of these tags: <execute_python>, <ask_user>, <finalize_plan>.",
    );
    expect(server.requests[1]!.tools).toBeUndefined();
  });

  it("broken JSON in a tag: two corrections, then a readable error", async () => {
    const broken: Turn = { model: "planner", text: '<ask_user>{"question": "Which?", "options": [</ask_user>' };
    const { client, server } = await setup([broken, broken, broken], "text");
    const error = await plan(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe("bad_output");
    expect((error as ModelError).message).toMatch(/planner model \(planner\) gave an unusable reply 3 times in a row; the last time, the arguments of ask_user were not valid JSON/);
    expect(server.requests).toHaveLength(3);
  });
});

describe("auto protocol", () => {
  it("an endpoint that rejects tools: switches to text at once, says so once, and stays there", async () => {
    const { client, server, log } = await setup([
      {
        model: "planner",
        fault: { status: 400, message: "registry.ollama.ai/library/llava:latest does not support tools", times: 1 },
        text: "<thinking>look</thinking><execute_python>print(1)</execute_python>",
      },
      { model: "planner", text: "<finalize_plan/>" },
    ]);
    expect(await plan(client)).toMatchObject({ name: "execute_python", protocol: "text", attempts: 1 });
    expect(await plan(client)).toMatchObject({ name: "finalize_plan", protocol: "text" });
    expect(server.requests.map((r) => r.tools?.length ?? 0)).toEqual([3, 0, 0]);
    expect(log).toEqual([
      "[model] planner (planner) now uses the text tool protocol: its endpoint rejected the request's tools. Set ARGUS_TOOL_PROTOCOL_PLANNER=text to start it there.",
    ]);
    expect(client.protocolFor("planner")).toBe("text");
  });

  it("a model that answers in tags though it was given tools moves to text", async () => {
    const { client, server, log } = await setup([
      { model: "planner", text: "<thinking>a</thinking><execute_python>x = 1</execute_python>" },
      { model: "planner", text: "<finalize_plan/>" },
    ]);
    expect(await plan(client)).toMatchObject({ name: "execute_python", protocol: "text" });
    await plan(client);
    expect(server.requests.map((r) => r.tools?.length ?? 0)).toEqual([3, 0]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/wrote its tool call as text/);
  });

  it("under an explicit native setting, a rejection is an error that names the fix", async () => {
    const { client } = await setup(
      [{ model: "planner", fault: { status: 400, message: "registry.ollama.ai/library/llava:latest does not support tools" }, text: "x" }],
      "native",
    );
    const error = (await plan(client).catch((e: unknown) => e)) as ModelError;
    expect(error.kind).toBe("tools_unsupported");
    expect(error.message).toContain("ARGUS_TOOL_PROTOCOL_PLANNER=text");
  });
});
