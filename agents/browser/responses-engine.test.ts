/**
 * ResponsesEngine against the scripted model's /v1/responses over real HTTP, through the real
 * ModelClient: what the first request holds, how safety checks, current_url, refusals, bad
 * actions, messages and function tools go back and forth, usage, and transport failures retried
 * and classified like chat calls. The scripted model checks the request shape as OpenAI does, so
 * a protocol mistake fails here as a 400.
 */
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { StepContext } from "@/agents/types";
import { ModelError } from "@/lib/engines/llm/errors";
import { ModelClient, type ModelClientOptions } from "@/lib/engines/llm/models";
import type { CallOutcome } from "@/lib/engines/llm/role-health";
import type { SafetyCheck } from "@/lib/foundation/protocol/browser-wire";
import { startScriptedModel, type LoggedRequest, type ScriptedModel, type Turn } from "@/scripted-model/server";
import type { MoveOutcome, ScreenView } from "./engine";
import { ResponsesEngine } from "./responses-engine";

const MODEL = "computer-use-preview";
const SCREEN = [320, 200] as const;
const fast: ModelClientOptions = { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 50, timeoutMs: 5_000, maxRetries: 2, random: () => 0.5 };

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const pngs = new Map<string, Promise<Buffer>>();
function png(colour: string): Promise<Buffer> {
  if (!pngs.has(colour)) pngs.set(colour, sharp({ create: { width: SCREEN[0], height: SCREEN[1], channels: 3, background: colour } }).png().toBuffer());
  return pngs.get(colour)!;
}

async function view(colour: string, url: string, title = ""): Promise<ScreenView> {
  return { image: new Uint8Array(await png(colour)), mediaType: "image/png", width: SCREEN[0], height: SCREEN[1], url, title };
}

async function outcome(colour: string, url: string, note = "", acknowledged: SafetyCheck[] = []): Promise<MoveOutcome> {
  return { view: await view(colour, url), note, acknowledged };
}

async function setup(turns: Turn[], options: ModelClientOptions = {}) {
  server = await startScriptedModel({ name: "responses-engine", turns });
  const ended: CallOutcome[] = [];
  const model = new ModelClient({ apiKey: "k", baseUrl: server.url, byRole: { browser: MODEL } }, { ...fast, onCallEnd: (_role, o) => ended.push(o), ...options });
  const ctx: StepContext = { sessionId: "s", runId: "r", signal: new AbortController().signal, model };
  const engine = new ResponsesEngine({ task: "Count the screws in the product photo.", startUrl: "http://lab.test/", screen: SCREEN });
  return { server, ctx, engine, ended };
}

/** The `input` of a logged Responses request, image data URLs shown as `[image N bytes]`. */
const inputOf = (r: LoggedRequest) => r.input as Record<string, unknown>[];
const last = <T>(items: T[]): T => items[items.length - 1]!;

const click: Turn = { model: MODEL, reasoning: "The catalogue link is top left.", computerCall: { action: { type: "click", button: "left", x: 40, y: 30 } }, usage: { prompt_tokens: 900, completion_tokens: 25 } };

describe("ResponsesEngine: the request", () => {
  it("first asks with the instructions, the task and the start screenshot, offering the computer tool and the function tools", async () => {
    const { server, ctx, engine } = await setup([{ ...click, expect: { contains: ["Count the screws", "320×200", "http://lab.test/"], images: 1, maxImages: 1, toolNames: ["computer_use_preview", "goto", "back", "save_image", "done"] } }]);
    const decision = await engine.decide(ctx, await outcome("#fff", "http://lab.test/"));
    expect(decision).toEqual({
      move: { tool: "computer", action: { type: "click", button: "left", x: 40, y: 30 }, checks: [] },
      thinking: "The catalogue link is top left.",
      usage: { inputTokens: 900, outputTokens: 25 },
    });
    const request = server.requests[0]!;
    expect(request.status).toBe(200);
    const input = inputOf(request);
    expect(input.map((i) => i.role)).toEqual(["developer", "user"]);
    expect(input[1]!.content).toEqual([
      { type: "input_text", text: expect.stringContaining("Task: Count the screws in the product photo.") },
      { type: "input_image", image_url: expect.stringMatching(/^\[image \d+ bytes\]$/) },
    ]);
  });

  it("answers a computer call with the screenshot, current_url, and the words of what happened", async () => {
    const { server, ctx, engine } = await setup([click, { model: MODEL, text: "12 screws.", expect: { currentUrl: "http://lab.test/catalogue", acknowledged: [], images: 2, contains: "Did click(40, 30)." } }]);
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/"));
    const second = await engine.decide(ctx, await outcome("#eee", "http://lab.test/catalogue", "Did click(40, 30)."));
    expect(second.move).toEqual({ tool: "done", answer: "12 screws." });
    const input = inputOf(server.requests[1]!);
    expect(input.slice(2).map((i) => i.type ?? i.role)).toEqual(["reasoning", "computer_call", "computer_call_output", "user"]);
    expect(input[4]).toEqual({
      type: "computer_call_output",
      call_id: "call_1",
      acknowledged_safety_checks: [],
      output: { type: "computer_screenshot", image_url: expect.stringMatching(/^\[image \d+ bytes\]$/) },
      current_url: "http://lab.test/catalogue",
    });
  });
});

describe("ResponsesEngine: safety checks", () => {
  const risky: Turn = {
    model: MODEL,
    computerCall: { action: { type: "type", text: "hunter2" }, pendingSafetyChecks: [{ code: "sensitive_domain", message: "This page asks for a password." }] },
  };

  it("passes the model's pending checks on, and acknowledges the confirmed ones with the ids the model sent", async () => {
    const { server, ctx, engine } = await setup([risky, { model: MODEL, text: "Logged in.", expect: { acknowledged: ["sensitive_domain"], currentUrl: "/account" } }]);
    const first = await engine.decide(ctx, await outcome("#fff", "http://lab.test/login"));
    const check: SafetyCheck = { code: "sensitive_domain", message: "This page asks for a password.", source: "model" };
    expect(first.move).toEqual({ tool: "computer", action: { type: "type", text: "hunter2" }, checks: [check] });
    await engine.decide(ctx, await outcome("#ddd", "http://lab.test/account", 'Did type("hunter2").', [check]));
    const sent = inputOf(server.requests[1]!).find((i) => i.type === "computer_call_output")!;
    const issued = inputOf(server.requests[1]!).find((i) => i.type === "computer_call")!.pending_safety_checks as { id: string }[];
    expect(sent.acknowledged_safety_checks).toEqual([{ id: issued[0]!.id, code: "sensitive_domain", message: "This page asks for a password." }]);
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it("takes a refused call out of the history and tells the model in words", async () => {
    const refusedNote = "The person refused this step (This page asks for a password.). Nothing was done; find another way, or finish with done and say what you could not do.";
    const { server, ctx, engine } = await setup([risky, { model: MODEL, text: "I could not log in.", expect: { contains: "The person refused this step", maxImages: 1 } }]);
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/login"));
    const second = await engine.decide(ctx, await outcome("#fff", "http://lab.test/login", refusedNote, []));
    expect(second.move).toEqual({ tool: "done", answer: "I could not log in." });
    const input = inputOf(server.requests[1]!);
    expect(input.some((i) => i.type === "computer_call" || i.type === "computer_call_output")).toBe(false);
    expect(last(input)).toEqual({ role: "user", content: [{ type: "input_text", text: refusedNote }] });
  });

  it("answers a call whose policy check was refused (no model check) like any other, with the refusal as words", async () => {
    const note = "The person refused this step (Typing into a password field.). Nothing was done.";
    const { server, ctx, engine } = await setup([{ model: MODEL, computerCall: { action: { type: "type", text: "x" } } }, { model: MODEL, text: "ok", expect: { acknowledged: [], contains: "Typing into a password field" } }]);
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/login"));
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/login", note));
    expect(inputOf(server.requests[1]!).slice(-2).map((i) => i.type ?? i.role)).toEqual(["computer_call_output", "user"]);
  });
});

describe("ResponsesEngine: reading the answer", () => {
  it("turns a bad action into an invalid move with a readable error, and answers its call", async () => {
    const { server, ctx, engine } = await setup([
      { model: MODEL, computerCall: { action: { type: "click", x: "left", y: 3 } } },
      { model: MODEL, computerCall: { action: { type: "teleport" } } },
      { model: MODEL, text: "Giving up.", expect: { contains: "Could not do that" } },
    ]);
    const first = await engine.decide(ctx, await outcome("#fff", "http://lab.test/"));
    expect(first.move).toMatchObject({ tool: "invalid", error: expect.stringMatching(/^That computer action is not valid: x: /), summary: expect.stringContaining("computer(") });
    const second = await engine.decide(ctx, await outcome("#fff", "http://lab.test/", `Could not do that: ${(first.move as { error: string }).error}`));
    expect(second.move).toMatchObject({ tool: "invalid", error: expect.stringContaining("That computer action is not valid") });
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/", "Could not do that: bad action"));
    expect(server.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("takes a message without a call as done, with the message as the answer", async () => {
    const { ctx, engine } = await setup([{ model: MODEL, reasoning: "I can see them all.", text: "There are 12 screws in the photo." }]);
    expect(await engine.decide(ctx, await outcome("#fff", "http://lab.test/"))).toEqual({
      move: { tool: "done", answer: "There are 12 screws in the photo." },
      thinking: "I can see them all.",
      usage: expect.objectContaining({ inputTokens: expect.any(Number) }),
    });
  });

  it("reads the function tools as moves, and bad arguments or unknown functions as invalid moves", async () => {
    const { server, ctx, engine } = await setup([
      { model: MODEL, text: "The address bar is not visible.", toolCalls: [{ name: "goto", args: { url: "http://lab.test/catalogue" } }] },
      { model: MODEL, toolCalls: [{ name: "save_image", args: { name: "product.png", selector: "#product img" } }], expect: { contains: "Opened the catalogue.", images: 2 } },
      { model: MODEL, toolCalls: [{ name: "back", args: {} }], expect: { contains: "Saved product.png", maxImages: 2 } },
      { model: MODEL, toolCalls: [{ name: "goto", args: '{"url": ' }] },
      { model: MODEL, toolCalls: [{ name: "save_image", args: { selector: "img" } }] },
      { model: MODEL, toolCalls: [{ name: "open_tab", args: {} }] },
      { model: MODEL, toolCalls: [{ name: "done", args: { answer: "Saved product.png; 12 screws." } }] },
    ]);
    const moves = [];
    const notes: [string, string][] = [
      ["#fff", ""],
      ["#eee", "Opened the catalogue."],
      ["#eee", "Saved product.png into the session as an upload."],
      ["#fff", "Went back."],
      ["#fff", "Could not do that."],
      ["#fff", "Could not do that."],
      ["#fff", "Could not do that."],
    ];
    for (const [colour, note] of notes) moves.push((await engine.decide(ctx, await outcome(colour, "http://lab.test/", note))).move);
    expect(moves).toEqual([
      { tool: "goto", url: "http://lab.test/catalogue" },
      { tool: "save_image", name: "product.png", selector: "#product img" },
      { tool: "back" },
      { tool: "invalid", error: "The arguments of goto are not valid JSON.", summary: 'goto({"url": )' },
      { tool: "invalid", error: expect.stringMatching(/^The arguments of save_image are not valid: name: /), summary: expect.stringContaining("save_image(") },
      { tool: "invalid", error: expect.stringContaining('There is no function "open_tab"'), summary: "open_tab({})" },
      { tool: "done", answer: "Saved product.png; 12 screws." },
    ]);
    // After goto the screen changed: the output, then a fresh screenshot as a user image.
    const second = inputOf(server.requests[1]!);
    expect(second.slice(-2)).toEqual([
      { type: "function_call_output", call_id: "call_1", output: "Opened the catalogue." },
      { role: "user", content: [{ type: "input_text", text: "The screen now: http://lab.test/." }, { type: "input_image", image_url: expect.stringMatching(/^\[image/) }] },
    ]);
    // save_image left the screen as it was: no new picture.
    expect(last(inputOf(server.requests[2]!))).toEqual({ type: "function_call_output", call_id: "call_2", output: "Saved product.png into the session as an upload." });
    expect(server.requests.every((r) => r.status === 200)).toBe(true);
  });

  it("uses only the first of several calls, sends back only what led to it, and tells the model", async () => {
    const { server, ctx, engine } = await setup([
      { model: MODEL, computerCall: { action: { type: "wait" } }, toolCalls: [{ name: "goto", args: { url: "http://x.test/" } }] },
      { model: MODEL, text: "done", expect: { contains: "only the first, wait(1000 ms), was used" } },
    ]);
    expect((await engine.decide(ctx, await outcome("#fff", "http://lab.test/"))).move).toMatchObject({ tool: "computer", action: { type: "wait" } });
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/", "Did wait(1000 ms)."));
    expect(inputOf(server.requests[1]!).some((i) => i.type === "function_call")).toBe(false);
    expect(server.requests[1]!.status).toBe(200);
  });

  it("keeps the context bounded: the last few turns whole, older ones as lines", async () => {
    const turns: Turn[] = Array.from({ length: 7 }, (_, i) => ({ model: MODEL, reasoning: `step ${i + 1}`, computerCall: { action: { type: "scroll", x: 10, y: 10, scroll_x: 0, scroll_y: 100 } }, expect: { maxImages: 4 } }));
    const { server, ctx, engine } = await setup([...turns, { model: MODEL, text: "end", expect: { maxImages: 3, contains: ["Your earlier steps", "1. scroll(10, 10, by 0, 100) → Scrolled 1."] } }]);
    const colours = ["#000", "#111", "#222", "#333", "#444", "#555", "#666", "#777"];
    for (const [i, colour] of colours.entries()) await engine.decide(ctx, await outcome(colour, "http://lab.test/long", i === 0 ? "" : `Scrolled ${i}.`));
    expect(server.requests.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(server.requests.map((r) => r.images)).toEqual([1, 2, 3, 4, 3, 3, 3, 3]);
  });
});

describe("ResponsesEngine: failures are the chat calls' failures", () => {
  it("retries a 429 (after its Retry-After) and a 500, and reports the call to health", async () => {
    const { server, ctx, engine, ended } = await setup([{ ...click, fault: { status: 429, retryAfter: 0.01, times: 1 } }, { ...click, fault: { status: 500, times: 1 } }]);
    expect((await engine.decide(ctx, await outcome("#fff", "http://lab.test/"))).move.tool).toBe("computer");
    expect((await engine.decide(ctx, await outcome("#eee", "http://lab.test/", "Did click."))).move.tool).toBe("computer");
    expect(server.requests.map((r) => r.status)).toEqual([429, 200, 500, 200]);
    expect(ended).toEqual([
      { ok: true, retried: true, repaired: false, textProtocol: false },
      { ok: true, retried: true, repaired: false, textProtocol: false },
    ]);
  });

  it("gives up on a 500 after the retries with a typed error, and says what to set on a 404", async () => {
    const { ctx, engine, ended } = await setup([{ ...click, fault: { status: 500, times: 5 } }]);
    const error = await engine.decide(ctx, await outcome("#fff", "http://lab.test/")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: "server_error", role: "browser", model: MODEL, attempts: 3, httpStatus: 500 });
    expect((error as ModelError).message).toMatch(/internal error \(500\)\. 3 attempts failed\./);
    expect(ended.at(-1)).toMatchObject({ ok: false, retried: true, error: { kind: "server_error" } });

    await server!.close();
    server = await startScriptedModel({ name: "no-responses", turns: [{ ...click, fault: { status: 404 } }] });
    const model = new ModelClient({ apiKey: "k", baseUrl: server.url, byRole: { browser: MODEL } }, fast);
    const missing = await new ResponsesEngine({ task: "t", startUrl: "http://lab.test/", screen: SCREEN }).decide({ ...ctx, model }, await outcome("#fff", "http://lab.test/")).catch((e: unknown) => e);
    expect(missing).toMatchObject({ kind: "unknown_model", httpStatus: 404, attempts: 1 });
    expect((missing as ModelError).message).toContain("set ARGUS_BROWSER_API=chat");
  });

  it("after a failed call, asking again resends the same history (the move is answered once)", async () => {
    const { server, ctx, engine } = await setup([click, { model: MODEL, text: "Done.", fault: { status: 500, times: 3 } }]);
    await engine.decide(ctx, await outcome("#fff", "http://lab.test/"));
    const next = await outcome("#eee", "http://lab.test/catalogue", "Did click(40, 30).");
    await expect(engine.decide(ctx, next)).rejects.toMatchObject({ kind: "server_error", attempts: 3 });
    expect((await engine.decide(ctx, next)).move).toEqual({ tool: "done", answer: "Done." });
    const input = inputOf(last(server.requests));
    expect(input.filter((i) => i.type === "computer_call_output")).toHaveLength(1);
    expect(server.requests.map((r) => r.status)).toEqual([200, 500, 500, 500, 200]);
  });

  it("retries an answer that is not JSON, like a chat call", async () => {
    const { server, ctx, engine } = await setup([{ ...click, fault: { type: "garbage", times: 1 } }]);
    expect((await engine.decide(ctx, await outcome("#fff", "http://lab.test/"))).move.tool).toBe("computer");
    expect(server.requests.map((r) => [r.status, r.fault ?? null])).toEqual([
      [200, "garbage"],
      [200, null],
    ]);
  });
});
