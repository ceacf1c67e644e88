/**
 * The scripted model's Responses API (`POST /v1/responses`) over real HTTP on loopback: output
 * items, the request checks OpenAI makes (so a client's protocol mistakes fail loudly), the same
 * turn queue and `expect` as chat completions, and faults.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedModel, type Scenario, type ScriptedModel, type Turn } from "./server";

const servers: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(turns: Turn[], name = "responses"): Promise<ScriptedModel> {
  const server = await startScriptedModel({ name, turns } satisfies Scenario);
  servers.push(server);
  return server;
}

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const COMPUTER = { type: "computer_use_preview", display_width: 1024, display_height: 768, environment: "browser" };
const GOTO = { type: "function", name: "goto", description: "Open a URL.", parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] } };

type Body = Record<string, unknown>;
type Item = Record<string, unknown> & { type: string };
interface ResponseBody {
  id: string;
  status: string;
  output: Item[];
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
  incomplete_details: { reason: string } | null;
}
interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const first = (extra: Body = {}): Body => ({
  model: "cua",
  instructions: "You browse for the person.",
  input: [{ role: "user", content: [{ type: "input_text", text: "Find the screws." }, { type: "input_image", image_url: PNG }] }],
  tools: [COMPUTER, GOTO],
  truncation: "auto",
  reasoning: { summary: "concise" },
  ...extra,
});

function post(server: ScriptedModel, body: Body): Promise<Response> {
  return fetch(`${server.url}/responses`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer x" }, body: JSON.stringify(body) });
}

async function ok(server: ScriptedModel, body: Body): Promise<ResponseBody> {
  const response = await post(server, body);
  const json = (await response.json()) as ResponseBody & ErrorBody;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function refused(server: ScriptedModel, body: Body): Promise<ErrorBody["error"]> {
  const response = await post(server, body);
  expect(response.status).toBe(400);
  return ((await response.json()) as ErrorBody).error;
}

/** What a client sends back after a computer call: the history, the call's items and the screenshot. */
function answerCall(previous: Body, reply: ResponseBody, output: Body = {}): Body {
  const call = reply.output.find((item) => item.type === "computer_call")!;
  const checks = (call.pending_safety_checks as Body[]) ?? [];
  return {
    ...previous,
    input: [
      ...(previous.input as Body[]),
      ...reply.output,
      { type: "computer_call_output", call_id: call.call_id, acknowledged_safety_checks: checks, output: { type: "computer_screenshot", image_url: PNG }, current_url: "http://lab.test/form", ...output },
    ],
  };
}

const click: Turn = { model: "cua", reasoning: "The form is on the right.", computerCall: { action: { type: "click", button: "left", x: 10, y: 20 } } };
const typePassword: Turn = {
  model: "cua",
  computerCall: { action: { type: "type", text: "hunter2" }, pendingSafetyChecks: [{ code: "sensitive_domain", message: "This looks like a login form." }] },
  usage: { prompt_tokens: 1200, completion_tokens: 30 },
};

describe("POST /v1/responses: output items", () => {
  it("answers a computer_call after its reasoning item, with pending safety checks and usage", async () => {
    const server = await start([click, typePassword]);
    const one = await ok(server, first());
    expect(one).toMatchObject({ object: "response", status: "completed", model: "cua", truncation: "auto" });
    expect(one.output).toEqual([
      { type: "reasoning", id: expect.stringMatching(/^rs_/), summary: [{ type: "summary_text", text: "The form is on the right." }] },
      { type: "computer_call", id: expect.stringMatching(/^cu_/), call_id: "call_1", action: { type: "click", button: "left", x: 10, y: 20 }, pending_safety_checks: [], status: "completed" },
    ]);
    expect(one.usage.input_tokens).toBeGreaterThan(85);
    expect(one.usage.total_tokens).toBe(one.usage.input_tokens + one.usage.output_tokens);

    const two = await ok(server, answerCall(first(), one));
    const call = two.output[0]!;
    expect(call).toMatchObject({ type: "computer_call", call_id: "call_2", action: { type: "type", text: "hunter2" } });
    expect(call.pending_safety_checks).toEqual([{ id: expect.stringMatching(/^cu_sc_/), code: "sensitive_domain", message: "This looks like a login form." }]);
    expect(two.usage).toMatchObject({ input_tokens: 1200, output_tokens: 30, total_tokens: 1230 });

    expect(server.requests.map((r) => [r.api, r.matchedTurn, r.status, r.images])).toEqual([
      ["responses", 1, 200, 1],
      ["responses", 2, 200, 2],
    ]);
    // The log keeps the input's shape with images shrunk to a note.
    expect(JSON.stringify(server.requests[1]!.input)).toContain('"image_url":"[image 70 bytes]"');
    expect(server.requests[1]!.tools).toEqual(["computer_use_preview", "goto"]);
  });

  it("answers function calls, a message, a refusal, and an incomplete response", async () => {
    const server = await start([
      { model: "cua", text: "Opening the catalogue.", toolCalls: [{ name: "goto", args: { url: "http://lab.test/" } }] },
      { model: "cua", text: "There are 12 screws." },
      { model: "cua", refusal: "I can't help with that." },
      { model: "cua", text: "cut", finishReason: "length" },
    ]);
    const one = await ok(server, first());
    expect(one.output).toEqual([
      { type: "message", id: expect.stringMatching(/^msg_/), role: "assistant", status: "completed", content: [{ type: "output_text", text: "Opening the catalogue.", annotations: [] }] },
      { type: "function_call", id: expect.stringMatching(/^fc_/), call_id: "call_1", name: "goto", arguments: '{"url":"http://lab.test/"}', status: "completed" },
    ]);
    const next = { ...first(), input: [...(first().input as Body[]), ...one.output, { type: "function_call_output", call_id: "call_1", output: "Opened http://lab.test/." }] };
    expect((await ok(server, next)).output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text: "There are 12 screws." }] });
    expect((await ok(server, first())).output[0]).toMatchObject({ type: "message", content: [{ type: "refusal", refusal: "I can't help with that." }] });
    expect(await ok(server, first())).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });
});

describe("POST /v1/responses: checks a real endpoint makes", () => {
  it("needs every pending safety check acknowledged, by the ids it sent", async () => {
    const server = await start([typePassword, click, click]);
    const one = await ok(server, first());
    const id = (one.output[0]!.pending_safety_checks as Body[])[0]!.id;

    const none = await refused(server, answerCall(first(), one, { acknowledged_safety_checks: [] }));
    expect(none).toMatchObject({ message: "Computer tool has unacknowledged safety check.", param: "input[2].acknowledged_safety_checks", type: "invalid_request_error" });
    const forged = await refused(server, answerCall(first(), one, { acknowledged_safety_checks: [{ id: "cu_sc_made_up", code: "sensitive_domain", message: "x" }] }));
    expect(forged.message).toBe("Safety check 'cu_sc_made_up' was not raised for call_id 'call_1'.");
    await ok(server, answerCall(first(), one, { acknowledged_safety_checks: [{ id, code: "sensitive_domain", message: "This looks like a login form." }] }));
    expect(server.requests.map((r) => r.status)).toEqual([200, 400, 400, 200]);
  });

  it("refuses an output for a call it never made, a call left without its output, and a call without its reasoning", async () => {
    const server = await start([click, click]);
    const one = await ok(server, first());
    const foreign = { ...first(), input: [...(first().input as Body[]), { type: "computer_call_output", call_id: "call_99", output: { type: "computer_screenshot", image_url: PNG } }] };
    expect((await refused(server, foreign)).message).toBe("No computer call found with call_id 'call_99'.");
    const dangling = { ...first(), input: [...(first().input as Body[]), ...one.output, { role: "user", content: "The person refused." }] };
    expect((await refused(server, dangling)).message).toBe("No tool output found for computer call call_1.");
    const withoutReasoning = answerCall(first(), { ...one, output: one.output.filter((item) => item.type !== "reasoning") });
    expect((await refused(server, withoutReasoning)).message).toMatch(/^Item 'cu_scripted_\d+' of type 'computer_call' was provided without its required 'reasoning' item: 'rs_scripted_\d+'\.$/);
    const notScreenshot = answerCall(first(), one, { output: { type: "input_image", image_url: PNG } });
    expect((await refused(server, notScreenshot)).param).toBe("input[3].output.type");
    // None of this used the second turn.
    expect(server.remaining()).toEqual({ cua: 1 });
  });

  it("refuses what computer use does not allow: no truncation auto, a detailed summary, streaming, previous_response_id, chat-style tools", async () => {
    const server = await start([click]);
    expect((await refused(server, first({ truncation: "disabled" }))).message).toBe("The computer use tool requires 'truncation' to be set to 'auto'.");
    expect((await refused(server, first({ reasoning: { summary: "detailed" } }))).code).toBe("unsupported_value");
    expect((await refused(server, first({ stream: true }))).message).toMatch(/without streaming/);
    expect((await refused(server, first({ previous_response_id: "resp_x" }))).message).toBe("Previous response with id 'resp_x' was not found.");
    const chatTool = { type: "function", function: { name: "goto", parameters: {} } };
    expect((await refused(server, first({ tools: [COMPUTER, chatTool] }))).code).toBe("unknown_parameter");
    expect((await refused(server, first({ tools: [{ ...COMPUTER, display_width: 0 }] }))).param).toBe("tools[0].display_width");
    expect(server.remaining()).toEqual({ cua: 1 });
  });
});

describe("POST /v1/responses: turns and expectations", () => {
  it("applies expect to the input: text, images, tools, current_url and acknowledged checks", async () => {
    const server = await start([
      { ...typePassword, expect: { contains: ["Find the screws", "You browse"], images: 1, toolNames: ["computer_use_preview", "goto"] } },
      { ...click, expect: { currentUrl: "/form", acknowledged: ["sensitive_domain"], images: 2 } },
    ]);
    const one = await ok(server, first());
    const wrongUrl = await refused(server, answerCall(first(), one, { current_url: "http://lab.test/" }));
    expect(wrongUrl).toMatchObject({ code: "scripted_model_mismatch" });
    expect(wrongUrl.message).toBe('scenario "responses": turn 2 (model cua) expected the request to send current_url containing "/form" with the last computer_call_output, got "http://lab.test/"');
    await ok(server, answerCall(first(), one));
  });

  it("shares the queue with chat completions, which cannot take a computerCall turn", async () => {
    const server = await start([click, { model: "cua", text: "done" }]);
    const chat = await fetch(`${server.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "cua", messages: [{ role: "user", content: "hi" }] }) });
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as ErrorBody).error.message).toContain("be a Responses API request (POST /v1/responses), since the turn has computerCall");
    await ok(server, first());
    expect(server.remaining()).toEqual({ cua: 1 });
  });

  it("performs faults: a 429 with Retry-After, then the turn's answer", async () => {
    const server = await start([{ ...click, fault: { status: 429, retryAfter: 0.01, times: 1 } }]);
    const limited = await post(server, first());
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("0.01");
    expect(((await limited.json()) as ErrorBody).error.code).toBe("rate_limit_exceeded");
    expect((await ok(server, first())).output.at(-1)!.type).toBe("computer_call");
    expect(server.requests.map((r) => [r.status, r.fault ?? null])).toEqual([
      [429, "429"],
      [200, null],
    ]);
  });

  it("forgets what it issued on reset", async () => {
    const server = await start([click, click]);
    const one = await ok(server, first());
    server.reset();
    expect((await refused(server, answerCall(first(), one))).message).toMatch(/^Item with id 'rs_scripted_\d+' not found\.$/);
  });
});
