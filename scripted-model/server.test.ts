/**
 * The scripted model over real HTTP on loopback: the wire format (checked by hand and by the
 * real AI SDK client the product uses), turn matching, expectations, faults and inspection.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, RetryError, generateText, jsonSchema, streamText, tool, type TextStreamPart, type ToolSet } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import {
  ScenarioError,
  loadScenario,
  startScriptedModel,
  type LoggedRequest,
  type Scenario,
  type ScriptedModel,
  type ScriptedModelOptions,
} from "./server";

// ---------- helpers ----------

const servers: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(scenario: Scenario, opts?: ScriptedModelOptions): Promise<ScriptedModel> {
  const server = await startScriptedModel(scenario, opts);
  servers.push(server);
  return server;
}

/** A 1×1 PNG, enough for an image part. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PNG = Buffer.from(PNG_BASE64, "base64");

type Body = Record<string, unknown>;

/** A request offering tools: without them a model writes its calls as text (see text-calls.ts). */
const TOOLS = [{ type: "function", function: { name: "run_python", parameters: {} } }];

function chat(model: string, text: string, extra: Body = {}): Body {
  return { model, messages: [{ role: "user", content: text }], ...extra };
}

function withImages(model: string, text: string, images: number): Body {
  const image = { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_BASE64}` } };
  return { model, messages: [{ role: "user", content: [{ type: "text", text }, ...Array(images).fill(image)] }] };
}

function post(server: ScriptedModel, body: Body, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer x" },
    body: JSON.stringify(body),
    ...init,
  });
}

interface Completion {
  choices: { message: { content: string | null; tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[]; refusal: string | null }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  object: string;
}

interface ErrorResponse {
  error: { message: string; type: string; code: string };
}

/** A minimal SSE reader: every `data:` payload in order, JSON-parsed except `[DONE]`. */
async function readSse(response: Response): Promise<unknown[]> {
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : (JSON.parse(data) as unknown)));
}

interface Chunk {
  object: string;
  choices: { delta: { role?: string; content?: string; tool_calls?: { index: number; id?: string; type?: string; function: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[];
  usage?: Completion["usage"] | null;
}

async function mismatch(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as ErrorResponse;
  expect(body.error).toMatchObject({ type: "invalid_request_error", code: "scripted_model_mismatch" });
  return body.error.message;
}

async function getJson<T>(server: ScriptedModel, route: string, method = "GET"): Promise<T> {
  const origin = server.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}${route}`, { method });
  return (await response.json()) as T;
}

// ---------- wire format ----------

describe("non-streaming answers", () => {
  it("answers with text, finish_reason stop and estimated usage", async () => {
    const server = await start({ name: "plain", turns: [{ model: "planner", text: "Hello there" }] });
    const response = await post(server, chat("planner", "hi"));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-scripted-turn")).toBe("1");
    const body = (await response.json()) as Completion;
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0]).toMatchObject({ message: { role: "assistant", content: "Hello there" }, finish_reason: "stop" });
    expect(body.usage).toEqual({ prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });
  });

  it("answers with tool calls, sending string args verbatim, and honours usage overrides", async () => {
    const server = await start({
      name: "tools",
      turns: [
        {
          model: "planner",
          toolCalls: [
            { name: "run_python", args: { code: "print(1)" } },
            { name: "broken", args: '{"code": "unterminated' },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 7 },
        },
      ],
    });
    const body = (await (await post(server, chat("planner", "go", { tools: TOOLS }))).json()) as Completion;
    const choice = body.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "run_python", arguments: '{"code":"print(1)"}' } },
      { id: "call_2", type: "function", function: { name: "broken", arguments: '{"code": "unterminated' } },
    ]);
    expect(body.usage).toEqual({ prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 });
  });

  it("sends refusal and a scripted finish reason", async () => {
    const server = await start({
      name: "refuse",
      turns: [{ model: "vqa", refusal: "I can't help with that.", finishReason: "content_filter" }],
    });
    const body = (await (await post(server, chat("vqa", "?"))).json()) as Completion;
    expect(body.choices[0]).toMatchObject({
      message: { content: null, refusal: "I can't help with that." },
      finish_reason: "content_filter",
    });
  });
});

describe("streaming answers", () => {
  const scenario: Scenario = {
    name: "stream",
    turns: [
      { model: "coder", text: "Let me run that for you.", toolCalls: [{ name: "run_python", args: { code: "x = 1" } }] },
      { model: "coder", text: "plain" },
    ],
  };

  it("streams a role delta, content deltas, split tool-call deltas, finish, usage and [DONE]", async () => {
    const server = await start(scenario);
    const events = await readSse(
      await post(server, chat("coder", "go", { stream: true, stream_options: { include_usage: true }, tools: TOOLS })),
    );
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1) as Chunk[];
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");

    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(content).toBe("Let me run that for you.");
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(1);

    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({ index: 0, id: "call_1", type: "function", function: { name: "run_python", arguments: "" } });
    expect(toolDeltas.length).toBe(3);
    expect(toolDeltas.map((delta) => delta.function.arguments).join("")).toBe('{"code":"x = 1"}');

    const finish = chunks.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe("tool_calls");
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage?.total_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it("sends no usage chunk unless include_usage is set", async () => {
    const server = await start(scenario);
    await post(server, chat("coder", "first")).then((response) => response.text());
    const chunks = (await readSse(await post(server, chat("coder", "go", { stream: true })))).slice(0, -1) as Chunk[];
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.some((chunk) => "usage" in chunk)).toBe(false);
  });

  it("streams 200 KB of text intact, from text and from textRepeat", async () => {
    const big = "0123456789abcdé🙂".repeat(12_500);
    const server = await start({
      name: "big",
      turns: [
        { model: "planner", text: big },
        { model: "planner", text: "head:", textRepeat: { chunk: "xyz", times: 70_000 } },
      ],
    });
    const first = (await readSse(await post(server, chat("planner", "a", { stream: true })))).slice(0, -1) as Chunk[];
    expect(first.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(big);
    const second = (await (await post(server, chat("planner", "b"))).json()) as Completion;
    expect(second.choices[0]?.message.content).toBe(`head:${"xyz".repeat(70_000)}`);
  });
});

// ---------- matching and expectations ----------

describe("turn matching", () => {
  it("keeps one queue per model", async () => {
    const server = await start({
      name: "queues",
      turns: [
        { model: "planner", text: "plan 1" },
        { model: "coder", text: "code 1" },
        { model: "planner", text: "plan 2" },
      ],
    });
    const answer = async (model: string) =>
      ((await (await post(server, chat(model, "x"))).json()) as Completion).choices[0]?.message.content;
    expect(await answer("coder")).toBe("code 1");
    expect(await answer("planner")).toBe("plan 1");
    expect(await answer("planner")).toBe("plan 2");
    expect(server.remaining()).toEqual({ planner: 0, coder: 0 });
  });

  it("refuses a request no unused turn fits, naming the scenario", async () => {
    const server = await start({ name: "x", turns: [{ model: "coder", text: "a" }, { model: "coder", text: "b" }] });
    await post(server, chat("coder", "1"));
    await post(server, chat("coder", "2"));
    expect(await mismatch(await post(server, chat("coder", "3")))).toBe('scenario "x": no unused turn for model "coder" (2 of 2 used)');
    expect(await mismatch(await post(server, chat("gpt-4o", "3")))).toBe(
      'scenario "x": no turn for model "gpt-4o" (the scenario has turns for: coder)',
    );
  });

  it("checks contains and notContains over system, user and tool-result text", async () => {
    const server = await start({
      name: "words",
      turns: [
        { model: "planner", expect: { contains: ["be brief", "count coins", "42"], notContains: "secret" }, text: "ok" },
        { model: "planner", expect: { contains: "kernel output" }, text: "never" },
        { model: "planner", expect: { notContains: "password" }, text: "never" },
      ],
    });
    const messages = [
      { role: "system", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "count coins" }] },
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c", content: "42" },
    ];
    expect((await post(server, { model: "planner", messages })).status).toBe(200);
    expect(await mismatch(await post(server, chat("planner", "hi")))).toBe(
      'scenario "words": turn 2 (model planner) expected the request to contain "kernel output", not found in 1 message',
    );
    // A broken expectation does not consume the turn: the same turn is checked again.
    expect((await post(server, chat("planner", "the kernel output is 3"))).status).toBe(200);
    expect(await mismatch(await post(server, chat("planner", "my password is hunter2")))).toBe(
      'scenario "words": turn 3 (model planner) expected the request to not contain "password", found in message 1 (user)',
    );
  });

  it("checks image counts and offered tool names", async () => {
    const server = await start({
      name: "count coins",
      turns: [
        { model: "planner", text: "a", expect: { images: 1 } },
        { model: "planner", text: "b", expect: { images: 2, maxImages: 2, toolNames: ["run_python"] } },
      ],
    });
    expect(await mismatch(await post(server, chat("planner", "no image")))).toBe(
      'scenario "count coins": turn 1 (model planner) expected the request to contain an image, found none',
    );
    expect((await post(server, withImages("planner", "look", 1))).status).toBe(200);
    expect(await mismatch(await post(server, withImages("planner", "look", 3)))).toBe(
      'scenario "count coins": turn 2 (model planner) expected the request to contain at most 2 images, found 3; and to offer 1 tool run_python, no tools were offered',
    );
    const tools = [{ type: "function", function: { name: "run_python", parameters: { type: "object" } } }];
    expect((await post(server, { ...withImages("planner", "look", 2), tools })).status).toBe(200);
  });
});

// ---------- faults ----------

describe("faults", () => {
  it("answers a status fault `times` times with Retry-After, then the turn's answer", async () => {
    const server = await start({
      name: "busy",
      turns: [{ model: "planner", text: "finally", fault: { status: 429, retryAfter: 2, times: 2 } }],
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await post(server, chat("planner", "x"));
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("2");
      const body = (await response.json()) as ErrorResponse;
      expect(body.error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
      expect(body.error.message).toMatch(/Rate limit/);
    }
    const body = (await (await post(server, chat("planner", "x"))).json()) as Completion;
    expect(body.choices[0]?.message.content).toBe("finally");
    expect(server.requests.map((r) => [r.status, r.fault])).toEqual([[429, "429"], [429, "429"], [200, undefined]]);
  });

  it("consumes the turn with a fault that has no `times`", async () => {
    const server = await start({
      name: "down",
      turns: [
        { model: "coder", fault: { status: 503, message: "overloaded", code: "busy" } },
        { model: "coder", text: "back" },
      ],
    });
    const failed = await post(server, chat("coder", "x"));
    expect(failed.status).toBe(503);
    expect(((await failed.json()) as ErrorResponse).error).toMatchObject({ message: "overloaded (scripted fault)", code: "busy" });
    expect(((await (await post(server, chat("coder", "x"))).json()) as Completion).choices[0]?.message.content).toBe("back");
  });

  it("closes the connection: at once without streaming, after the first chunk with", async () => {
    const server = await start({
      name: "close",
      turns: [
        { model: "m", text: "never", fault: { type: "close" } },
        { model: "m", text: "never sent in full", fault: { type: "close" } },
      ],
    });
    await expect(post(server, chat("m", "x"))).rejects.toThrow(/fetch failed/);
    const response = await post(server, chat("m", "x", { stream: true }));
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(/terminated/);
    expect(server.requests.map((r) => [r.status, r.fault])).toEqual([[0, "close"], [200, "close"]]);
  });

  it("sends garbage that is not JSON, and SSE whose data is not JSON", async () => {
    const server = await start({
      name: "garbage",
      turns: [
        { model: "m", fault: { type: "garbage" } },
        { model: "m", fault: { type: "garbage" } },
      ],
    });
    const plain = await post(server, chat("m", "x"));
    expect(plain.status).toBe(200);
    await expect(plain.json()).rejects.toThrow(SyntaxError);
    const streamed = await post(server, chat("m", "x", { stream: true }));
    await expect(readSse(streamed)).rejects.toThrow(SyntaxError);
  });

  it("stalls until the client gives up, and delays a slow answer", async () => {
    const server = await start({
      name: "timing",
      turns: [
        { model: "m", text: "late", fault: { type: "stall", ms: 5_000 } },
        { model: "m", text: "slowly", fault: { type: "slow", ms: 150 } },
      ],
    });
    const stallStart = Date.now();
    await expect(post(server, chat("m", "x"), { signal: AbortSignal.timeout(150) })).rejects.toThrow(/abort|timeout/i);
    expect(Date.now() - stallStart).toBeLessThan(1_000);

    const slowStart = Date.now();
    const body = (await (await post(server, chat("m", "x"))).json()) as Completion;
    expect(Date.now() - slowStart).toBeGreaterThanOrEqual(140);
    expect(body.choices[0]?.message.content).toBe("slowly");
    expect(server.requests.map((r) => r.fault)).toEqual(["stall 5000ms", "slow 150ms"]);
  });

  it("stalls mid-stream after the first chunks when asked", async () => {
    const server = await start({
      name: "midstream",
      turns: [{ model: "m", text: "hello world", fault: { type: "stall", ms: 200, midStream: true } }],
    });
    const response = await post(server, chat("m", "x", { stream: true }));
    expect(response.status).toBe(200);
    const started = Date.now();
    await expect(response.text()).rejects.toThrow(/terminated/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});

// ---------- routes, inspection, keys ----------

describe("routes and inspection", () => {
  it("lists models, logs requests with images redacted, reports and resets state", async () => {
    const server = await start({
      name: "inspect",
      turns: [
        { model: "planner", text: "p" },
        { model: "coder", text: "c" },
      ],
    });
    const models = await getJson<{ object: string; data: { id: string; object: string; owned_by: string }[] }>(server, "/v1/models");
    expect(models.object).toBe("list");
    expect(models.data.map((m) => [m.id, m.object, m.owned_by])).toEqual([
      ["planner", "model", "argus-scripted"],
      ["coder", "model", "argus-scripted"],
    ]);

    const tools = [{ type: "function", function: { name: "run_python", parameters: {} } }];
    await post(server, { ...withImages("planner", "look", 2), tools });
    await post(server, chat("nobody", "x"), { headers: { "content-type": "application/json" } });

    const log = await getJson<LoggedRequest[]>(server, "/__requests");
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ index: 0, model: "planner", stream: false, matchedTurn: 1, status: 200, images: 2, tools: ["run_python"], authorization: true });
    expect(log[0]?.messages[0]?.content).toEqual([
      { type: "text", text: "look" },
      { type: "image_url", bytes: PNG.length },
      { type: "image_url", bytes: PNG.length },
    ]);
    expect(log[1]).toMatchObject({ index: 1, model: "nobody", matchedTurn: null, status: 400, authorization: false });
    expect(log[1]?.error).toMatch(/no turn for model "nobody"/);

    expect(await getJson(server, "/__state")).toEqual({ scenario: "inspect", dialect: "openai", used: [1], remaining: { planner: 0, coder: 1 } });
    expect(await getJson(server, "/__reset", "POST")).toEqual({ scenario: "inspect", dialect: "openai", used: [], remaining: { planner: 1, coder: 1 } });
    expect(server.requests).toHaveLength(0);
    expect((await post(server, chat("planner", "again"))).status).toBe(200);
  });

  it("answers unknown routes with a 404 in OpenAI's error shape", async () => {
    const server = await start({ name: "404", turns: [{ model: "m", text: "x" }] });
    const response = await fetch(`${server.url}/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorResponse).error.message).toBe("scripted model has no route POST /v1/completions");
  });

  it("refuses bodies that are not chat completion requests", async () => {
    const server = await start({ name: "bad", turns: [{ model: "m", text: "x" }] });
    const notJson = await fetch(`${server.url}/chat/completions`, { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
    const noMessages = await post(server, { model: "m" });
    expect(((await noMessages.json()) as ErrorResponse).error.message).toMatch(/messages/);
  });

  it("requires the key when started with requireKey", async () => {
    const server = await start({ name: "key", turns: [{ model: "m", text: "x" }] }, { requireKey: "sk-right" });
    const wrong = await post(server, chat("m", "x"));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as ErrorResponse).error.code).toBe("invalid_api_key");
    const right = await post(server, chat("m", "x"), { headers: { authorization: "Bearer sk-right" } });
    expect(right.status).toBe(200);
  });

  it("binds to loopback and logs one line per request", async () => {
    const lines: string[] = [];
    const server = await start({ name: "log", turns: [{ model: "m", text: "x" }] }, { log: (line) => lines.push(line) });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await post(server, chat("m", "x"));
    await post(server, chat("m", "x"));
    expect(lines).toEqual(["#0 m -> turn 1 200", '#1 m -> 400 scenario "log": no unused turn for model "m" (1 of 1 used)']);
  });
});

describe("scenario files", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "argus-scenario-"));
  const write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it("loads the example scenario", () => {
    const scenario = loadScenario(fileURLToPath(new URL("../e2e/scenarios/hello.json", import.meta.url)));
    expect(scenario.name).toBe("hello");
  });

  it("names the file and the field that is wrong", () => {
    const file = write("bad.json", JSON.stringify({ name: "bad", turns: [{ model: "p" }, { model: "p", fault: { status: 418 } }] }));
    expect(() => loadScenario(file)).toThrow(ScenarioError);
    expect(() => loadScenario(file)).toThrow(`invalid scenario file ${file}: turns[1].fault.status (turn 2): Invalid option`);
    try {
      loadScenario(file);
    } catch (error) {
      expect((error as ScenarioError).field).toBe("turns[1].fault.status");
    }
  });

  it("names an unknown key, a missing field and broken JSON", () => {
    const typo = write("typo.json", JSON.stringify({ name: "t", turns: [{ model: "p", toolcalls: [] }] }));
    expect(() => loadScenario(typo)).toThrow(/turns\[0\]\.toolcalls \(turn 1\): Unrecognized key/);
    const missing = write("missing.json", JSON.stringify({ turns: [{ text: "hi" }] }));
    expect(() => loadScenario(missing)).toThrow(/name: Invalid input: expected string.*turns\[0\]\.model \(turn 1\)/);
    const broken = write("broken.json", "{ nope");
    expect(() => loadScenario(broken)).toThrow(`scenario file ${broken} is not valid JSON`);
    expect(() => loadScenario(path.join(dir, "absent.json"))).toThrow(/cannot read scenario file .*absent\.json/);
  });
});

// ---------- the real client ----------

describe("compatibility with @ai-sdk/openai-compatible and ai@6", () => {
  const provider = (server: ScriptedModel) =>
    createOpenAICompatible({ name: "scripted", baseURL: server.url, apiKey: "x", includeUsage: true });
  const tools = {
    run_python: tool({
      description: "Run Python in the kernel",
      inputSchema: jsonSchema<{ code: string }>({
        type: "object",
        properties: { code: { type: "string" } },
        required: ["code"],
        additionalProperties: false,
      }),
    }),
  } satisfies ToolSet;
  const scenario: Scenario = {
    name: "client",
    turns: [
      { model: "planner", expect: { contains: "count the coins", images: 1 }, text: "There are 3 coins.", usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { model: "planner", expect: { toolNames: ["run_python"] }, text: "Running.", toolCalls: [{ name: "run_python", args: { code: "len(coins)" } }] },
    ],
  };
  const prompt = [
    {
      role: "user" as const,
      content: [
        { type: "text" as const, text: "count the coins" },
        { type: "image" as const, image: new Uint8Array(PNG), mediaType: "image/png" },
      ],
    },
  ];

  it("generateText: text with usage, then a tool call", async () => {
    const server = await start(scenario);
    const model = provider(server).chatModel("planner");
    const first = await generateText({ model, messages: prompt });
    expect(first.text).toBe("There are 3 coins.");
    expect(first.finishReason).toBe("stop");
    expect(first.usage).toMatchObject({ inputTokens: 50, outputTokens: 5, totalTokens: 55 });

    const second = await generateText({ model, prompt: "now run it", tools });
    expect(second.finishReason).toBe("tool-calls");
    expect(second.text).toBe("Running.");
    expect(second.toolCalls.map((call) => [call.toolCallId, call.toolName, call.input])).toEqual([
      ["call_1", "run_python", { code: "len(coins)" }],
    ]);
  });

  it("streamText: text deltas, a tool call from split deltas, and usage from the final chunk", async () => {
    const server = await start(scenario);
    const model = provider(server).chatModel("planner");
    const first = streamText({ model, messages: prompt });
    const deltas: string[] = [];
    for await (const delta of first.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("There are 3 coins.");
    expect(await first.usage).toMatchObject({ inputTokens: 50, outputTokens: 5, totalTokens: 55 });

    const second = streamText({ model, prompt: "now run it", tools });
    const parts: TextStreamPart<typeof tools>[] = [];
    for await (const part of second.fullStream) parts.push(part);
    expect(parts.filter((part) => part.type === "error")).toEqual([]);
    expect(await second.text).toBe("Running.");
    expect((await second.toolCalls).map((call) => [call.toolName, call.input])).toEqual([["run_python", { code: "len(coins)" }]]);
    expect(await second.finishReason).toBe("tool-calls");
    expect((await second.usage).totalTokens).toBeGreaterThan(0);
    expect(parts.some((part) => part.type === "tool-input-delta")).toBe(true);
  });

  it("surfaces a mismatch as a non-retryable APICallError naming the scenario and turn", async () => {
    const server = await start(scenario);
    const error = await generateText({ model: provider(server).chatModel("planner"), prompt: "no image" }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.isRetryable).toBe(false);
    expect(apiError.message).toBe(
      'scenario "client": turn 1 (model planner) expected the request to contain "count the coins", not found in 1 message; and to contain an image, found none',
    );
  });

  it("retries 429s honouring Retry-After, and reports exhausted retries as RetryError", async () => {
    const server = await start({
      name: "retry",
      turns: [
        { model: "planner", text: "made it", fault: { status: 429, retryAfter: 0.05, times: 2 } },
        { model: "planner", fault: { status: 503, retryAfter: 0.05, times: 3 }, text: "unreached" },
      ],
    });
    const model = provider(server).chatModel("planner");
    const started = Date.now();
    expect((await generateText({ model, prompt: "x", maxRetries: 2 })).text).toBe("made it");
    expect(Date.now() - started).toBeLessThan(1_500); // Retry-After, not the 2 s default backoff

    const error = await generateText({ model, prompt: "x", maxRetries: 2 }).catch((e: unknown) => e);
    expect(RetryError.isInstance(error)).toBe(true);
    const last = (error as RetryError).lastError;
    expect(APICallError.isInstance(last)).toBe(true);
    expect(last).toMatchObject({ statusCode: 503, isRetryable: true, responseHeaders: expect.objectContaining({ "retry-after": "0.05" }) });
    expect((error as RetryError).reason).toBe("maxRetriesExceeded");
  });

  it("reports a bad key as a non-retryable 401", async () => {
    const server = await start({ name: "key", turns: [{ model: "planner", text: "x" }] }, { requireKey: "sk-real" });
    const error = await generateText({ model: provider(server).chatModel("planner"), prompt: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AI_APICallError", statusCode: 401, isRetryable: false });
    expect(server.remaining()).toEqual({ planner: 1 });
  });

  it("reports close, garbage and stall the way the model layer will see them", async () => {
    const server = await start({
      name: "broken",
      turns: [
        { model: "planner", fault: { type: "close" } },
        { model: "planner", fault: { type: "garbage" } },
        { model: "planner", fault: { type: "stall", ms: 5_000 } },
        { model: "planner", fault: { type: "close" }, text: "partial" },
        { model: "planner", fault: { type: "garbage" } },
        { model: "planner", fault: { type: "stall", ms: 5_000, midStream: true }, text: "partial" },
      ],
    });
    const model = provider(server).chatModel("planner");
    const generate = (extra: { timeout?: number } = {}) =>
      generateText({ model, prompt: "x", maxRetries: 0, ...extra }).catch((e: unknown) => e);

    // Non-streaming. A dropped connection is a retryable APICallError caused by undici's
    // SocketError; an unparseable 200 is a non-retryable one caused by a JSONParseError; a
    // stall ends in the caller's timeout, a DOMException that the SDK never retries.
    expect(await generate()).toMatchObject({ name: "AI_APICallError", isRetryable: true, cause: { name: "SocketError" } });
    expect(await generate()).toMatchObject({ name: "AI_APICallError", isRetryable: false, statusCode: 200, cause: { name: "AI_JSONParseError" } });
    expect(await generate({ timeout: 150 })).toMatchObject({ name: "TimeoutError" });

    // Streaming. A connection dropped mid-stream is thrown from the stream itself (not an
    // error part, not onError) and is not retried even though it says isRetryable.
    const closed = streamText({ model, prompt: "x", maxRetries: 2 });
    const thrown = await (async () => {
      for await (const part of closed.fullStream) void part;
    })().catch((e: unknown) => e);
    expect(thrown).toMatchObject({ name: "AI_APICallError", isRetryable: true, message: "Failed to process successful response", cause: { message: "terminated" } });
    await expect(closed.finishReason).rejects.toMatchObject({ name: "AI_APICallError" });

    // Garbage chunks arrive as an error part (and through onError); the finish reason is "error".
    const errors: unknown[] = [];
    const garbled = streamText({ model, prompt: "x", maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    const parts: string[] = [];
    for await (const part of garbled.fullStream) parts.push(part.type === "error" ? `error:${(part.error as Error).name}` : part.type);
    expect(parts).toContain("error:AI_JSONParseError");
    expect(errors).toHaveLength(1);
    expect(await garbled.finishReason).toBe("error");

    // A stream that stalls after its first text is ended by a chunk timeout.
    const stalled = streamText({ model, prompt: "x", maxRetries: 0, timeout: { chunkMs: 150 } });
    const stalledParts: string[] = [];
    for await (const part of stalled.fullStream) stalledParts.push(part.type);
    expect(stalledParts).toContain("text-delta");
    expect(stalledParts.at(-1)).toBe("abort");
    await expect(stalled.finishReason).rejects.toMatchObject({ name: "TimeoutError", message: "Chunk timeout of 150ms exceeded" });
    expect(server.requests).toHaveLength(6);
  });
});

describe("POST /__scenario", () => {
  it("swaps in another scenario for a running server, and refuses an invalid one", async () => {
    const server = await startScriptedModel({ name: "first", turns: [{ model: "a", text: "one" }] });
    try {
      const base = server.url.replace(/\/v1$/, "");
      const ok = await fetch(`${base}/__scenario`, { method: "POST", body: JSON.stringify({ name: "second", turns: [{ model: "b", text: "two" }] }) });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { scenario: string }).scenario).toBe("second");
      expect(server.scenario.name).toBe("second");
      const res = await fetch(`${server.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "b", messages: [{ role: "user", content: "hi" }] }) });
      expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("two");
      const bad = await fetch(`${base}/__scenario`, { method: "POST", body: JSON.stringify({ name: "x", turns: [{ modell: "b" }] }) });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/invalid scenario/);
    } finally {
      await server.close();
    }
  });
});
