import { describe, expect, it } from "vitest";
import { ACTION_ARGS } from "./action-args";
import {
  ACTION_KINDS,
  ActionEventSchema,
  ArgusEventSchema,
  OBSERVATION_KINDS,
  ObservationEventSchema,
  isAction,
  isActionKind,
  isObservation,
  isObservationKind,
} from "./events";

describe("event kinds", () => {
  it("lists every action kind of DESIGN §3 plus null", () => {
    expect([...ACTION_KINDS].sort()).toEqual(
      [
        "browse",
        "browse_interactive",
        "delegate",
        "finish",
        "interaction",
        "message",
        "null",
        "read",
        "reject",
        "run",
        "run_ipython",
        "task_tracking",
        "write",
      ].sort(),
    );
  });

  it("lists every observation kind of DESIGN §3 plus null", () => {
    expect([...OBSERVATION_KINDS].sort()).toEqual(
      [
        "agent_state_changed",
        "browse",
        "delegate",
        "error",
        "null",
        "read",
        "run",
        "run_ipython",
        "success",
        "user_rejected",
        "write",
      ].sort(),
    );
  });

  it("recognises kinds without trusting inherited keys", () => {
    expect(isActionKind("run")).toBe(true);
    expect(isActionKind("toString")).toBe(false);
    expect(isActionKind(3)).toBe(false);
    expect(isObservationKind("error")).toBe(true);
    expect(isObservationKind("edit")).toBe(false);
  });
});

describe("action schemas", () => {
  it("fills OpenHands defaults for run", () => {
    const e = ActionEventSchema.parse({ action: "run", args: { command: "ls" } });
    expect(e.args).toEqual({
      command: "ls",
      is_input: false,
      thought: "",
      blocking: false,
      is_static: false,
      cwd: null,
      hidden: false,
      confirmation_state: "confirmed",
      security_risk: -1,
    });
  });

  it("keeps the declared field order in the shape (serialization relies on it)", () => {
    expect(Object.keys(ACTION_ARGS.message.shape)).toEqual([
      "content",
      "file_urls",
      "image_urls",
      "wait_for_response",
      "security_risk",
      // Argus's own, after OpenHands' fields (a card's typed answer).
      "choice",
    ]);
    expect(Object.keys(ACTION_ARGS.run_ipython.shape)).toEqual([
      "code",
      "thought",
      "include_extra",
      "confirmation_state",
      "security_risk",
      "kernel_init_code",
    ]);
  });

  it("fills interaction defaults and accepts any JSON payload", () => {
    const e = ActionEventSchema.parse({
      action: "interaction",
      args: { kind: "tool_review", prompt: "Pick a tool", payload: { tools: [{ name: "a", score: 0.3 }] } },
    });
    expect(e.args).toEqual({
      kind: "tool_review",
      prompt: "Pick a tool",
      options: [],
      payload: { tools: [{ name: "a", score: 0.3 }] },
      thought: "",
    });
  });

  it("rejects unknown args keys and out-of-range risk", () => {
    expect(ActionEventSchema.safeParse({ action: "run", args: { command: "ls", bogus: 1 } }).success).toBe(false);
    expect(ActionEventSchema.safeParse({ action: "run", args: { command: "ls", security_risk: 3 } }).success).toBe(false);
  });

  it("validates task lists", () => {
    const ok = ActionEventSchema.safeParse({
      action: "task_tracking",
      args: { command: "plan", task_list: [{ id: "1", title: "Find coins", status: "todo" }] },
    });
    expect(ok.success).toBe(true);
    const bad = ActionEventSchema.safeParse({
      action: "task_tracking",
      args: { command: "plan", task_list: [{ id: "1", title: "x", status: "open" }] },
    });
    expect(bad.success).toBe(false);
  });
});

describe("observation schemas", () => {
  it("fills run metadata defaults from an empty object", () => {
    const e = ObservationEventSchema.parse({ observation: "run", extras: { command: "ls" } });
    expect(e.content).toBe("");
    expect(e.extras).toEqual({
      command: "ls",
      metadata: {
        exit_code: -1,
        pid: -1,
        username: null,
        hostname: null,
        working_dir: null,
        py_interpreter_path: null,
        prefix: "",
        suffix: "",
      },
      hidden: false,
    });
  });

  it("keeps unknown browse extras", () => {
    const e = ObservationEventSchema.parse({
      observation: "browse",
      content: "page",
      extras: { url: "https://x", trigger_by_action: "browse", dom_object: { a: 1 } },
    });
    expect(e.extras).toMatchObject({ url: "https://x", dom_object: { a: 1 }, error: false });
  });

  it("only accepts Argus run states in agent_state_changed", () => {
    const ok = ObservationEventSchema.safeParse({
      observation: "agent_state_changed",
      extras: { agent_state: "awaiting_user_input" },
    });
    expect(ok.success).toBe(true);
    const bad = ObservationEventSchema.safeParse({
      observation: "agent_state_changed",
      extras: { agent_state: "rate_limited" },
    });
    expect(bad.success).toBe(false);
  });
});

describe("type guards", () => {
  it("tell actions from observations", () => {
    const a = ArgusEventSchema.parse({ action: "finish", args: {} });
    const o = ArgusEventSchema.parse({ observation: "success", extras: {} });
    expect(isAction(a)).toBe(true);
    expect(isObservation(a)).toBe(false);
    expect(isObservation(o)).toBe(true);
  });
});
