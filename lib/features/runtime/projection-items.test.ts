import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cellOutputText, emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import { ChatItemSchema, type ChatItem } from "@/lib/foundation/protocol/chat-item";
import { chatItemMessage } from "@/lib/foundation/protocol/chat-text";
import { toAgentMessage, toChatItem } from "./projection";
import { runEndingEvents } from "./run-ending";
import { fromDict } from "./serialization";

const item = (d: Record<string, unknown>) => toChatItem(fromDict(d));

/** Every item the projection makes is one the wire schema accepts, unchanged. */
function valid(i: ChatItem | null): ChatItem | null {
  if (i !== null) expect(ChatItemSchema.parse(i)).toEqual(i);
  return i;
}

describe("events as typed chat items", () => {
  it("the person's words, their answers, and the agents' words", () => {
    expect(valid(item({ source: "user", action: "message", args: { content: "count", image_urls: ["/api/files/1"] } }))).toEqual({ type: "user", text: "count", media: ["/api/files/1"] });
    expect(valid(item({ source: "user", cause: 4, action: "message", args: { content: "a" } }))).toEqual({ type: "answer", text: "a", media: [] });
    const choice = { kind: "tool_review", function_name: "detect_circles", box_threshold: 0.5 };
    const json = '{"function_name":"detect_circles","box_threshold":0.5}';
    expect(valid(item({ source: "user", cause: 4, action: "message", args: { content: json, choice } }))).toEqual({ type: "answer", text: json, media: [], choice });
    // An answer logged before answers were typed: the card's JSON is read back once, here; a question is never a choice.
    expect(valid(item({ source: "user", cause: 4, action: "message", args: { content: json } }))).toEqual({ type: "answer", text: json, media: [], choice });
    expect(valid(item({ source: "user", action: "message", args: { content: json } }))).toEqual({ type: "user", text: json, media: [] });
    expect(valid(item({ source: "agent", agent: "conversation", action: "message", args: { content: "**hi**" } }))).toEqual({ type: "agent_message", speaker: "conversation", text: "**hi**", media: [] });
    expect(valid(item({ source: "agent", agent: "system", action: "message", args: { content: "x" } }))).toMatchObject({ speaker: "assistant" });
  });

  it("cells and their output", () => {
    expect(valid(item({ agent: "coder", action: "run_ipython", args: { code: "f()", thought: "test it" } }))).toEqual({ type: "cell", agent: "coder", thinking: "test it", code: "f()" });
    const output = { ...emptyCellOutput(), stdout: "3", images: { shown: 1, viewed: 1 } };
    const typed = item({ observation: "run_ipython", content: cellOutputText(output), extras: { code: "x", image_urls: ["/api/files/p"], output } });
    expect(valid(typed)).toEqual({ type: "cell_output", output, media: ["/api/files/p"] });
  });

  it("a cell's typed output is what the chat gets, whatever its text says", () => {
    const output = { ...emptyCellOutput(), stdout: "----- error -----\nnot an error" };
    const e = item({ observation: "run_ipython", content: cellOutputText(output), extras: { code: "x", output } });
    expect(valid(e)).toEqual({ type: "cell_output", output, media: [] });
    expect(chatItemMessage(valid(e)!).content).toBe("----- stdout -----\n----- error -----\nnot an error");
  });

  it("a cell recorded with only its text (an older log) gets typed output read from that text", () => {
    const e = item({ observation: "run_ipython", content: "----- stdout -----\n3\n----- images -----\n1 image(s) displayed", extras: { code: "x" } });
    expect(valid(e)).toEqual({ type: "cell_output", output: { ...emptyCellOutput(), stdout: "3", images: { shown: 1, viewed: 0 } }, media: [] });
    expect(chatItemMessage(valid(e)!).content).toBe("----- stdout -----\n3\n----- images -----\n1 image(s) displayed");
  });

  it("a cell the person stopped: its output marked stopped, and the stop itself as a notice", () => {
    const half = { ...emptyCellOutput(), stdout: "half" };
    expect(valid(item({ observation: "run_ipython", content: "----- stdout -----\nhalf", extras: { code: "x", stopped: true, output: half } }))).toEqual({ type: "cell_output", output: half, media: [], stopped: true });
    const stop = valid(item(runEndingEvents({ kind: "stopped_by_person" }).at(-1) as Record<string, unknown>));
    expect(stop).toEqual({ type: "stopped" });
    expect(chatItemMessage(stop!)).toEqual({ role: "final_observation", content: "The person stopped this run." });
    // A run a budget stopped says why in its own error note; its final state is not the person's stop.
    expect(item(runEndingEvents({ kind: "budget", reason: "60 steps" }).at(-1) as Record<string, unknown>)).toBeNull();
    expect(item({ observation: "agent_state_changed", extras: { agent_state: "finished" } })).toBeNull();
  });

  it("a plan, final code, and a task list", () => {
    expect(valid(item({ agent: "planner", action: "finish", args: { outputs: { plan: "p", instructions: ["a", "b"], code: "c" } } }))).toEqual({ type: "plan", plan: "p", instructions: ["a", "b"], code: "c" });
    // An older plan kept its instructions as one string, a step a line.
    expect(valid(item({ agent: "planner", action: "finish", args: { outputs: { plan: "p", instructions: "1. a\n\n2. b" } } }))).toEqual({ type: "plan", plan: "p", instructions: ["1. a", "2. b"], code: "" });
    expect(valid(item({ agent: "coder", action: "finish", args: { outputs: { code: "def f(): pass", test: "f()" } } }))).toEqual({ type: "final_code", code: "def f(): pass", test: "f()" });
    expect(valid(item({ action: "task_tracking", args: { command: "plan", task_list: [{ id: "1", title: "t", status: "done" }] } }))).toEqual({
      type: "task_list",
      speaker: "planner",
      command: "plan",
      tasks: [{ id: "1", title: "t", status: "done", notes: "" }],
    });
  });

  it("questions, tool reviews and safety checks", () => {
    expect(valid(item({ action: "interaction", args: { kind: "question", prompt: "Which?", options: ["a"] } }))).toEqual({ type: "question", prompt: "Which?", options: ["a"], payload: null });
    const review = { image: "/api/files/i", candidates: [] };
    expect(valid(item({ action: "interaction", args: { kind: "tool_review", prompt: "Pick", payload: review } }))).toEqual({ type: "tool_review", prompt: "Pick", options: [], payload: review });
    const safety = { action: "click(1, 2)", url: "http://lab/", checks: [{ code: "form_submit", message: "Sends a form.", source: "policy" }], screenshot: null, pointer: { x: 1, y: 2 }, viewport: [1024, 768] };
    expect(valid(item({ agent: "browser", action: "interaction", args: { kind: "safety", prompt: "Allow?", options: ["Confirm", "Refuse"], payload: safety } }))).toEqual({
      type: "safety_check",
      prompt: "Allow?",
      options: ["Confirm", "Refuse"],
      payload: safety,
    });
    // An unreadable payload still asks, without the details.
    expect(valid(item({ action: "interaction", args: { kind: "safety", prompt: "Allow?", payload: { checks: [] } } }))).toMatchObject({ type: "safety_check", payload: null });
  });

  it("browser steps and screens", () => {
    expect(valid(item({ agent: "browser", action: "browse", args: { url: "http://lab/", thought: "Go." } }))).toEqual({
      type: "browser_step",
      thinking: "Go.",
      action: { tool: "goto", summary: "goto(http://lab/)", pointer: null },
    });
    expect(valid(item({ agent: "browser", action: "finish", args: { outputs: { answer: "Found it." } } }))).toEqual({
      type: "browser_step",
      thinking: "",
      action: { tool: "done", summary: "Found it.", pointer: null },
    });
    const extras = { url: "http://lab/", trigger_by_action: "browse", last_browser_action: "", last_browser_action_error: "", image_urls: ["/api/files/s"], title: "Lab", pointer: null, viewport: [800, 600], tabs: 2, saved: [] };
    expect(valid(item({ agent: "browser", observation: "browse", content: "Now at http://lab/.", extras }))).toEqual({
      type: "browser_screen",
      screen: { url: "http://lab/", title: "Lab", action: "", error: "", pointer: null, viewport: [800, 600], tabs: 2 },
      text: "Now at http://lab/.",
      media: ["/api/files/s"],
    });
  });

  it("notices, errors and results", () => {
    expect(valid(item({ agent: "planner", action: "run", args: { command: "ls" } }))).toEqual({ type: "notice", speaker: "planner", text: "Running command: ls" });
    expect(valid(item({ action: "reject", args: { outputs: { reason: "No image." } } }))).toEqual({ type: "error", text: "No image." });
    expect(valid(item({ observation: "error", content: "Kernel died." }))).toEqual({ type: "error", text: "Kernel died." });
    expect(valid(item({ observation: "success", content: "done" }))).toEqual({ type: "result", text: "done" });
    expect(item({ action: "delegate", args: { agent: "coder" } })).toBeNull();
  });

  it("the compatible text form is written from the item", () => {
    const e = fromDict({ agent: "planner", action: "run_ipython", args: { code: "print(1)", thought: "look" } });
    expect(toAgentMessage(e)).toEqual(chatItemMessage(toChatItem(e)!));
  });
});

describe("the chat item schema", () => {
  it("refuses an unknown type and a wrong field", () => {
    expect(ChatItemSchema.safeParse({ type: "cell", agent: "browser", thinking: "", code: "" }).success).toBe(false);
    expect(ChatItemSchema.safeParse({ type: "mystery", text: "" }).success).toBe(false);
    expect(ChatItemSchema.safeParse({ type: "user", text: "hi", media: [], extra: 1 }).success).toBe(false);
  });
});

describe("stored events of every shape", () => {
  // OpenHands' own event cases (the repo's copy): whatever a stored log holds, its chat item is valid.
  const vectors = JSON.parse(readFileSync(path.resolve(__dirname, "../../../tests/fixtures/openhands-event-vectors.json"), "utf8")) as {
    serialization_roundtrip: { name: string; input: Record<string, unknown> }[];
  };

  it.each(vectors.serialization_roundtrip.map((c) => [c.name, c.input] as const))("%s projects to a valid item or to none", (_name, input) => {
    const e = fromDict(input);
    const i = valid(toChatItem(e));
    expect(toAgentMessage(e)).toEqual(i === null ? null : chatItemMessage(i));
  });
});
