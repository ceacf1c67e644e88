import { afterEach, describe, expect, it } from "vitest";
import { PROBE_HEADER, probeTurn, servedModels } from "./probe-answer";
import { startScriptedModel, type ScriptedModel } from "./server";

let server: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOL = { type: "function", function: { name: "probe_ok", parameters: { type: "object", properties: { ok: { type: "boolean" } } } } };
const ask = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: "user", content: "Say ok." }], ...extra });

function post(body: unknown, probe: boolean): Promise<Response> {
  return fetch(`${server!.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(probe ? { [PROBE_HEADER]: "probe" } : {}) },
    body: JSON.stringify(body),
  });
}

describe("probeTurn and servedModels", () => {
  it("calls the offered tool, or answers a short text", () => {
    expect(probeTurn({ model: "planner", messages: [], tools: [TOOL] } as never)).toEqual({ model: "planner", toolCalls: [{ name: "probe_ok", args: { ok: true } }] });
    expect(probeTurn({ model: "vqa", messages: [] } as never)).toEqual({ model: "vqa", text: "ok" });
  });

  it("lists the scenario's models, then the role names it lacks", () => {
    expect(servedModels(["planner", "gpt-x"])).toEqual(["planner", "gpt-x", "conversation", "coder", "vqa", "judge"]);
  });
});

describe("a model check against a running scenario", () => {
  it("is answered without using the turn Argus's next call needs, streamed when asked", async () => {
    server = await startScriptedModel({ name: "hello", turns: [{ model: "conversation", text: "Hello!" }] });
    const call = await post(ask("conversation", { tools: [TOOL], tool_choice: "required" }), true);
    expect(call.status).toBe(200);
    expect(((await call.json()) as { choices: { message: { tool_calls: { function: { name: string } }[] } }[] }).choices[0]!.message.tool_calls[0]!.function.name).toBe("probe_ok");
    const streamed = await post(ask("planner", { stream: true }), true);
    expect(streamed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await streamed.text()).toMatch(/^data: [\s\S]*"content":"o[\s\S]*data: \[DONE\]/);
    expect(server.remaining()).toEqual({ conversation: 1 });

    const listed = await fetch(`${server.url}/models`, { headers: { [PROBE_HEADER]: "probe" } });
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(["conversation", "planner", "coder", "vqa", "judge"]);
    const plain = await fetch(`${server.url}/models`);
    expect(((await plain.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(["conversation"]);

    // Argus's own call still gets the scripted turn.
    const real = await post(ask("conversation"), false);
    expect(((await real.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("Hello!");
  });

  it("takes turns scripted for checks (probe: true), which Argus's own calls never take", async () => {
    server = await startScriptedModel({ name: "checks", turns: [{ model: "planner", probe: true, fault: { status: 400, message: "image input is not supported" }, text: "x" }] });
    const real = await post(ask("planner"), false);
    expect(real.status).toBe(400);
    expect(((await real.json()) as { error: { message: string } }).error.message).toMatch(/turn for model "planner"/);
    const check = await post(ask("planner"), true);
    expect(check.status).toBe(400);
    expect(((await check.json()) as { error: { message: string } }).error.message).toMatch(/image input is not supported/);
    expect(server.remaining()).toEqual({ planner: 0 });
  });
});
