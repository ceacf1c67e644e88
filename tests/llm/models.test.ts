/**
 * ModelClient against the scripted model over real HTTP: the real AI SDK provider, real
 * streaming, real sockets. Timeouts and backoff are shrunk so the whole file runs in seconds.
 * It lives under tests/ rather than beside lib/engines/llm/models.ts because it needs the scripted
 * model, and nothing under lib/ imports scripted-model/.
 */
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { createServer } from "node:net";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ModelError } from "@/lib/engines/llm/errors";
import { imagePart } from "@/lib/engines/llm/images";
import { ModelClient, type ModelClientOptions, type RestartInfo, type ToolSpecs } from "@/lib/engines/llm/models";
import { startScriptedModel, type ScriptedModel, type Turn } from "@/scripted-model/server";

const byRole = { conversation: "conversation", planner: "planner", coder: "coder", vqa: "vqa", judge: "judge" };
const fast: ModelClientOptions = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000, maxRetries: 3, random: () => 0.5 };

const plannerTools: ToolSpecs = {
  execute_python: { description: "Run Python.", schema: z.object({ thinking: z.string(), code: z.string().min(1) }) },
  ask_user: {
    description: "Ask the person.",
    schema: z.object({ thinking: z.string(), question: z.string(), options: z.array(z.string()).default([]) }),
  },
  finalize_plan: { description: "Stop exploring.", schema: z.object({ thinking: z.string() }) },
};
const CHOOSE = "Call exactly one of: execute_python, ask_user, finalize_plan.";
const good: Turn = { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "look", code: "print(1)" } }] };

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(turns: Turn[], options: ModelClientOptions = {}, serverOptions: { requireKey?: string } = {}) {
  server = await startScriptedModel({ name: "models.test", turns }, serverOptions);
  const client = new ModelClient({ apiKey: "test-key", baseUrl: server.url, byRole }, { ...fast, ...options });
  return { server, client };
}

const never = () => new AbortController().signal;
const ask = [{ role: "user" as const, content: "How many coins are on the table?" }];

function plan(client: ModelClient, extra: { onText?: (d: string) => void; onRestart?: (i: RestartInfo) => void; signal?: AbortSignal } = {}) {
  return client.callTool("planner", {
    system: "You are the planner.",
    messages: ask,
    tools: plannerTools,
    signal: extra.signal ?? never(),
    onText: extra.onText,
    onRestart: extra.onRestart,
  });
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

/** A bare HTTP server that records requests and never answers: to see the wire and the socket. */
async function silentServer() {
  const seen: { body: unknown; closedAt?: number }[] = [];
  const http = createHttpServer((req: IncomingMessage) => {
    const entry: { body: unknown; closedAt?: number } = { body: undefined };
    seen.push(entry);
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => (entry.body = JSON.parse(text)));
    req.socket.on("close", () => (entry.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("happy paths", () => {
  it("text: streams deltas live and reports usage", async () => {
    const { client } = await setup([
      { model: "vqa", text: "There are three coins on the table, two heads up.", usage: { prompt_tokens: 21, completion_tokens: 12 } },
    ]);
    const deltas: string[] = [];
    const result = await client.text("vqa", { system: "Answer briefly.", messages: ask, signal: never(), onText: (d) => deltas.push(d) });
    expect(result).toEqual({
      text: "There are three coins on the table, two heads up.",
      usage: { inputTokens: 21, outputTokens: 12 },
      finishReason: "stop",
      truncated: false,
      habits: [],
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(result.text);
  });

  it("callTool: one valid call, arguments validated, tools offered, text streamed", async () => {
    const { client, server } = await setup([
      {
        model: "planner",
        text: "I will ask which coins count.",
        toolCalls: [{ name: "ask_user", args: { thinking: "ambiguous", question: "Count the foreign coins too?" } }],
        expect: { toolNames: ["execute_python", "ask_user", "finalize_plan"], contains: "You are the planner." },
        usage: { prompt_tokens: 100, completion_tokens: 20 },
      },
    ]);
    const deltas: string[] = [];
    const result = await plan(client, { onText: (d) => deltas.push(d) });
    expect(result).toEqual({
      name: "ask_user",
      args: { thinking: "ambiguous", question: "Count the foreign coins too?", options: [] },
      text: "I will ask which coins count.",
      thinking: "I will ask which coins count.",
      protocol: "native",
      usage: { inputTokens: 100, outputTokens: 20 },
      attempts: 1,
      habits: [],
    });
    expect(deltas.join("")).toBe("I will ask which coins count.");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ model: "planner", stream: true, authorization: true, status: 200 });
  });

  it("images reach the server as image parts", async () => {
    const { client, server } = await setup([{ model: "vqa", text: "A red square and a blue one.", expect: { images: 2 } }]);
    const red = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: "#c00" } }).png().toBuffer();
    const blue = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#00c" } }).jpeg().toBuffer();
    const parts = await Promise.all([imagePart(red), imagePart(blue)]);
    const result = await client.text("vqa", {
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "What is in these?" }, ...parts.map((p) => ({ type: "image" as const, image: p.image, mediaType: p.mediaType }))],
        },
      ],
      signal: never(),
    });
    expect(result.text).toBe("A red square and a blue one.");
    expect(server.requests[0]?.images).toBe(2);
    expect(parts[0]).toMatchObject({ width: 1568, height: 784 });
  });
});

/** Each unusable reply, and the correction the next request must carry. */
const badOutputs: { name: string; turn: Turn; correction: string; problem: RegExp }[] = [
  { name: "plain text", turn: { model: "planner", text: "I count 3 coins." }, correction: `Your reply did not call a tool. ${CHOOSE}`, problem: /plain text instead of a tool call/ },
  { name: "an empty reply", turn: { model: "planner", text: "" }, correction: `Your reply was empty. ${CHOOSE}`, problem: /the reply was empty/ },
  {
    name: "an unknown tool",
    turn: { model: "planner", toolCalls: [{ name: "bash", args: { cmd: "ls" } }] },
    correction: `There is no tool named 'bash'; the tools are named execute_python, ask_user, finalize_plan. ${CHOOSE}`,
    problem: /called 'bash', which is not one of its tools/,
  },
  {
    name: "arguments that are not JSON",
    turn: { model: "planner", toolCalls: [{ name: "execute_python", args: '{"thinking": "t", "code": print(1)}' }] },
    correction: "The arguments of execute_python were not valid JSON",
    problem: /arguments of execute_python were not valid JSON/,
  },
  {
    name: "arguments that fail the schema",
    turn: { model: "planner", toolCalls: [{ name: "execute_python", args: { thinking: "t" } }] },
    correction: "The arguments of execute_python are invalid: `code`:",
    problem: /arguments of execute_python were invalid: `code`/,
  },
  {
    name: "a refusal",
    turn: { model: "planner", refusal: "I can't help with that.", finishReason: "content_filter" },
    correction: `Your reply was a refusal or was blocked by a content filter instead of a tool call. ${CHOOSE}`,
    problem: /refused or its reply was filtered \("I can't help with that\."\)/,
  },
  {
    name: "a 200 KB reply",
    turn: { model: "planner", textRepeat: { chunk: "la ".repeat(300), times: 230 } },
    correction: "Your reply was far too long (over 100000 characters) and was discarded.",
    problem: /longer than 100000 characters and was cut off/,
  },
];

describe("bad output is fed back to the model", () => {
  it.each(badOutputs)("$name: repaired, then the next reply is used", async ({ turn, correction }) => {
    const { client, server } = await setup([
      { ...turn, usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { ...good, expect: { contains: correction }, usage: { prompt_tokens: 70, completion_tokens: 9 } },
    ]);
    const restarts: RestartInfo[] = [];
    const result = await plan(client, { onRestart: (i) => restarts.push(i) });
    expect(result).toMatchObject({ name: "execute_python", args: { thinking: "look", code: "print(1)" }, attempts: 2 });
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(restarts).toEqual([expect.objectContaining({ reason: "repair", attempt: 1 })]);
    // The model sees its own output back before the correction (except an empty reply).
    const second = server.requests[1]!.messages;
    expect(second.at(-1)).toMatchObject({ role: "user" });
    if (turn.text !== "") expect(second.some((m) => m.role === "assistant")).toBe(true);
  });

  // Plain text where a call is due is corrected once only (see the next test).
  it.each(badOutputs.filter((b) => b.name !== "plain text"))("$name three times: bad_output naming the role and the problem", async ({ turn, problem }) => {
    const { client, server } = await setup([turn, turn, turn, good]);
    const error = await failure(plan(client));
    expect(error.kind).toBe("bad_output");
    expect(error.message).toMatch(/^The planner model \(planner\) gave an unusable reply 3 times in a row; the last time, /);
    expect(error.message).toMatch(problem);
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(server.remaining()).toEqual({ planner: 1 });
  });

  it("plain text twice: one correction naming the tools, then a readable bad_output quoting what it said", async () => {
    const turn: Turn = { model: "planner", text: "<think>They want a count.</think>I count 3 coins." };
    const { client, server } = await setup([turn, turn, good]);
    const error = await failure(plan(client));
    expect(error.kind).toBe("bad_output");
    expect(error.message).toBe(
      'The planner model (planner) answered in plain text instead of calling one of its tools (execute_python, ask_user, finalize_plan), twice in a row, even after being told to call one. It said: "I count 3 coins."',
    );
    expect(error.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(server.remaining()).toEqual({ planner: 1 });
  });

  it("real models' habits cost no extra request, and onCallEnd hears of them (health)", async () => {
    const outcomes: unknown[] = [];
    const { client, server } = await setup([{ ...good, fence: "python", argumentsAs: "double_encoded", callAs: "python", thinkInText: "think", reasoning: "Look first." }], {
      onCallEnd: (_role, outcome) => outcomes.push(outcome),
    });
    const result = await plan(client);
    expect(result).toMatchObject({ name: "execute_python", args: { thinking: "look", code: "print(1)" }, thinking: "Look first.", attempts: 1 });
    expect([...result.habits].sort()).toEqual(["double_encoded", "fenced_code", "thinking_in_text", "tool_alias"]);
    expect(server.requests).toHaveLength(1);
    expect(outcomes).toEqual([expect.objectContaining({ ok: true, repaired: false, habits: result.habits })]);
  });

  it("text(): <think> in the answer is cut out of it", async () => {
    const { client } = await setup([{ model: "vqa", text: "There are 24 coins.", reasoning: "Count the round shapes.", thinkInText: "think" }]);
    const result = await client.text("vqa", { messages: ask, signal: never() });
    expect(result).toMatchObject({ text: "There are 24 coins.", habits: ["thinking_in_text"] });
  });

  it("sums usage over the repair attempts", async () => {
    const { client } = await setup([
      { model: "planner", text: "hmm", usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { model: "planner", toolCalls: [{ name: "nope", args: {} }], usage: { prompt_tokens: 130, completion_tokens: 11 } },
      { ...good, usage: { prompt_tokens: 160, completion_tokens: 12 } },
    ]);
    const result = await plan(client);
    expect(result.attempts).toBe(3);
    expect(result.usage).toEqual({ inputTokens: 390, outputTokens: 33 });
  });

  it("keeps the spent usage on a bad_output error, for the run's budget", async () => {
    const turn: Turn = { model: "planner", text: "no", usage: { prompt_tokens: 10, completion_tokens: 1 } };
    const { client } = await setup([turn, turn]);
    const error = await failure(
      client.callTool("planner", { messages: ask, tools: plannerTools, signal: never(), maxRepairs: 1 }),
    );
    expect(error).toMatchObject({ kind: "bad_output", attempts: 2, usage: { inputTokens: 20, outputTokens: 2 } });
  });

  it("text() cuts a runaway answer at maxResponseChars", async () => {
    const { client } = await setup([{ model: "vqa", textRepeat: { chunk: "0123456789", times: 5_000 } }]);
    const result = await client.text("vqa", { messages: ask, signal: never(), maxResponseChars: 10_000 });
    expect(result.truncated).toBe(true);
    expect(result.text).toHaveLength(10_000);
  });
});

describe("transient failures are retried", () => {
  it("500, then success", async () => {
    const { client, server } = await setup([{ ...good, fault: { status: 500, times: 1 } }]);
    const restarts: RestartInfo[] = [];
    const result = await plan(client, { onRestart: (i) => restarts.push(i) });
    expect(result.name).toBe("execute_python");
    expect(server.requests.map((r) => r.status)).toEqual([500, 200]);
    expect(restarts).toEqual([expect.objectContaining({ reason: "retry", attempt: 1, message: expect.stringMatching(/internal error \(500\)/) })]);
  });

  it("two 429s with Retry-After: 1, then success after waiting for it", async () => {
    const { client, server } = await setup([{ ...good, fault: { status: 429, retryAfter: 1, times: 2 } }]);
    const started = Date.now();
    const result = await plan(client);
    const elapsed = Date.now() - started;
    expect(result.name).toBe("execute_python");
    expect(server.requests.map((r) => r.status)).toEqual([429, 429, 200]);
    // Backoff alone would be a few ms; two waits of the server's 1 s are ~2 s.
    expect(elapsed).toBeGreaterThanOrEqual(1_950);
  });

  it("429 forever: rate_limited after the retries", async () => {
    const { client, server } = await setup([{ ...good, fault: { status: 429, retryAfter: 0, times: 50 } }]);
    const error = await failure(plan(client));
    expect(error.kind).toBe("rate_limited");
    expect(error.message).toBe("The model endpoint is rate limiting requests (429) and still was after 3 retries.");
    expect(server.requests).toHaveLength(4);
  });

  it("a stalled server becomes a timeout, retried, then reported", async () => {
    const { client, server } = await setup([{ ...good, fault: { type: "stall", ms: 10_000, times: 50 } }], { timeoutMs: 300, maxRetries: 2 });
    const started = Date.now();
    const error = await failure(plan(client));
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("The model did not answer within 0.3 s (3 attempts).");
    expect(server.requests).toHaveLength(3);
    // Each attempt stalls 10 s: well under that total means the 0.3 s timeout cut every attempt
    // (a bound far from the alternative, so a busy machine cannot fail it).
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it("a stall mid-stream times out too, and the retry succeeds", async () => {
    const { client, server } = await setup([{ ...good, fault: { type: "stall", ms: 10_000, midStream: true, times: 1 } }], { timeoutMs: 300 });
    const result = await plan(client);
    expect(result.name).toBe("execute_python");
    expect(server.requests).toHaveLength(2);
  });

  it("a slow but steady server is not a timeout", async () => {
    // A tenth of the budget: the margin holds on a loaded machine (300 ms against 150 ms did not).
    const { client, server } = await setup([{ ...good, fault: { type: "slow", ms: 300 } }], { timeoutMs: 3_000 });
    expect((await plan(client)).name).toBe("execute_python");
    expect(server.requests).toHaveLength(1);
  });

  it("a connection closed mid-stream is retried, and the live display is told to start over", async () => {
    const { client, server } = await setup([{ ...good, text: "Looking at the coins.", fault: { type: "close", times: 1 } }]);
    const deltas: string[] = [];
    const restarts: RestartInfo[] = [];
    const result = await plan(client, { onText: (d) => deltas.push(d), onRestart: (i) => restarts.push(i) });
    expect(result.text).toBe("Looking at the coins.");
    expect(server.requests).toHaveLength(2);
    expect(restarts[0]).toMatchObject({ reason: "retry", message: expect.stringMatching(/closed the connection before the reply was complete/) });
  });

  it("garbage bodies: server_error after the retries", async () => {
    const { client, server } = await setup([{ ...good, fault: { type: "garbage", times: 50 } }], { maxRetries: 2 });
    const error = await failure(plan(client));
    expect(error.kind).toBe("server_error");
    expect(error.message).toBe(`The model endpoint at ${server.url} answered something that is not valid JSON.`);
    expect(server.requests).toHaveLength(3);
  });

  it("connection refused: unreachable, naming the endpoint", async () => {
    const port = await closedPort();
    const client = new ModelClient({ apiKey: null, baseUrl: `http://127.0.0.1:${port}/v1`, byRole }, { ...fast, maxRetries: 1 });
    const error = await failure(client.text("vqa", { messages: ask, signal: never() }));
    expect(error.kind).toBe("unreachable");
    expect(error.message).toMatch(new RegExp(`^Could not reach the model endpoint at http://127\\.0\\.0\\.1:${port}/v1: .*ECONNREFUSED`));
    expect(error.attempts).toBe(2);
  });
});

describe("the request on the wire", () => {
  it("offers tools as JSON schema with tool_choice required, streams, and asks for usage", async () => {
    const silent = await silentServer();
    try {
      const client = new ModelClient({ apiKey: "k", baseUrl: silent.url, byRole }, { ...fast, timeoutMs: 200, maxRetries: 0 });
      await failure(plan(client));
      const body = silent.seen[0]?.body as Record<string, unknown>;
      expect(body).toMatchObject({
        model: "planner",
        stream: true,
        stream_options: { include_usage: true },
        tool_choice: "required",
        messages: [
          { role: "system", content: "You are the planner." },
          { role: "user", content: "How many coins are on the table?" },
        ],
      });
      const tools = body.tools as { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
      expect(tools.map((t) => t.function.name)).toEqual(["execute_python", "ask_user", "finalize_plan"]);
      expect(tools[0]?.function.parameters).toMatchObject({ type: "object", required: ["thinking", "code"] });
      expect(tools[0]?.function.parameters.$schema).toBeUndefined();
    } finally {
      await silent.close();
    }
  });
});

describe("final failures are not retried", () => {
  it("401: auth, exactly one request", async () => {
    const { client, server } = await setup([good], {}, { requireKey: "the-right-key" });
    const error = await failure(plan(client));
    expect(error.kind).toBe("auth");
    expect(error.message).toBe("The model endpoint rejected the API key (401). Check OPENAI_API_KEY.");
    expect(server.requests).toHaveLength(1);
  });

  it("404: unknown_model, naming the model and the variable", async () => {
    const { client, server } = await setup([{ ...good, fault: { status: 404 } }]);
    const error = await failure(plan(client));
    expect(error.kind).toBe("unknown_model");
    expect(error.message).toBe(
      `The model 'planner' does not exist on ${server.url} (404). Check ARGUS_MODEL_PLANNER (or ARGUS_MODEL), and that OPENAI_BASE_URL ends in /v1.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("a 400 about context length: context_too_long, one request", async () => {
    const message = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens.";
    const { client, server } = await setup([{ ...good, fault: { status: 400, message, code: "context_length_exceeded" } }]);
    const error = await failure(plan(client));
    expect(error.kind).toBe("context_too_long");
    expect(server.requests).toHaveLength(1);
  });

  it("not configured: says what to set, sends nothing", async () => {
    const client = new ModelClient({ apiKey: null, baseUrl: null, byRole: { ...byRole, planner: null } });
    expect(client.status("planner")).toEqual({ ok: false, message: expect.stringMatching(/OPENAI_API_KEY.*ARGUS_MODEL_PLANNER/) });
    const error = await failure(plan(client));
    expect(error.kind).toBe("not_configured");
    expect(error.message).toMatch(/^No model is configured for the planner: set OPENAI_API_KEY/);
  });
});

describe("cancel", () => {
  it("aborts the in-flight request within a second, as cancelled, with no retry", async () => {
    const { client, server } = await setup([{ ...good, fault: { type: "stall", ms: 10_000, times: 50 } }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const error = await failure(plan(client, { signal: controller.signal }));
    expect(error.kind).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(1_200);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).toHaveLength(1);
  });

  it("closes the HTTP connection on cancel", async () => {
    const silent = await silentServer();
    try {
      const client = new ModelClient({ apiKey: "k", baseUrl: silent.url, byRole }, fast);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const error = await failure(plan(client, { signal: controller.signal }));
      const cancelledAt = Date.now();
      expect(error.kind).toBe("cancelled");
      await new Promise((r) => setTimeout(r, 100));
      expect(silent.seen).toHaveLength(1);
      expect(silent.seen[0]?.closedAt).toBeDefined();
      expect(Math.abs(silent.seen[0]!.closedAt! - cancelledAt)).toBeLessThan(1_000);
    } finally {
      await silent.close();
    }
  });

  it("cancels mid-stream too", async () => {
    const { client } = await setup([{ ...good, text: "Thinking about it.", fault: { type: "stall", ms: 10_000, midStream: true, times: 5 } }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = plan(client, { signal: controller.signal, onText: (d) => {
      deltas.push(d);
      controller.abort();
    } });
    const error = await failure(pending);
    expect(error.kind).toBe("cancelled");
    expect(deltas.length).toBeGreaterThan(0);
  });

  it("cancels while waiting to retry", async () => {
    const { client, server } = await setup([{ ...good, fault: { status: 429, retryAfter: 20, times: 5 } }], { maxRetryAfterMs: 30_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const error = await failure(plan(client, { signal: controller.signal }));
    expect(error.kind).toBe("cancelled");
    // The server asked for a 20 s wait: ending far sooner means the cancel cut the wait.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(1);
  });
});
