import { describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { eventMessage } from "./event-message";
import { fromDict, observationSuccess, toDict } from "./serialization";
import { toMemory } from "./to-memory";

function errorOf(fn: () => unknown): ArgusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ArgusError) return e;
    throw e;
  }
  throw new Error("expected an ArgusError");
}

describe("fromDict defaults", () => {
  it("fills action args defaults in OpenHands order", () => {
    const d = toDict(fromDict({ action: "read", args: { path: "a.py" } }));
    expect(d.args).toEqual({
      path: "a.py",
      start: 0,
      end: -1,
      thought: "",
      security_risk: -1,
      impl_source: "default",
      view_range: null,
    });
    expect(Object.keys(d.args as object)).toEqual(["path", "start", "end", "thought", "security_risk", "impl_source", "view_range"]);
  });

  it("accepts a missing args object for kinds without required args", () => {
    expect(toDict(fromDict({ action: "finish" })).args).toEqual({ final_thought: "", outputs: {}, thought: "" });
    expect(toDict(fromDict({ action: "null" })).args).toEqual({});
  });

  it("fills observation content and extras", () => {
    const e = fromDict({ observation: "error" });
    expect(toDict(e)).toEqual({ message: "", observation: "error", content: "", extras: { error_id: "" } });
  });

  it("keeps Argus keys and base keys, dropping null and id -1", () => {
    const e = fromDict({
      id: -1,
      timestamp: "2025-01-01T00:00:00Z",
      source: "agent",
      cause: null,
      runId: "run-1",
      agent: "planner",
      action: "run_ipython",
      args: { code: "print(1)" },
    });
    expect(e.id).toBeUndefined();
    expect(e.cause).toBeUndefined();
    expect(e.runId).toBe("run-1");
    expect(e.agent).toBe("planner");
  });

  it("ignores derived keys on the way in", () => {
    const e = fromDict({ observation: "run", message: "whatever", success: true, content: "x", extras: { command: "false", metadata: { exit_code: 1 } } });
    expect(toDict(e).success).toBe(false);
  });
});

describe("fromDict errors", () => {
  it("rejects non-objects and dicts without a kind", () => {
    expect(errorOf(() => fromDict("run")).code).toBe("bad_request:event");
    expect(errorOf(() => fromDict([])).code).toBe("bad_request:event");
    expect(errorOf(() => fromDict({ args: {} })).field).toBe("action");
  });

  it("rejects both kinds at once", () => {
    expect(errorOf(() => fromDict({ action: "run", observation: "run" })).message).toMatch(/not both/);
  });

  it("names an unknown action or observation kind", () => {
    const a = errorOf(() => fromDict({ action: "edit", args: {} }));
    expect(a.field).toBe("action");
    expect(a.message).toContain('"edit"');
    const o = errorOf(() => fromDict({ observation: "mcp" }));
    expect(o.field).toBe("observation");
    expect(o.message).toContain('"mcp"');
  });

  it("names a missing required arg", () => {
    const e = errorOf(() => fromDict({ action: "run", args: {} }));
    expect(e.code).toBe("bad_request:event");
    expect(e.field).toBe("args.command");
    expect(e.message).toBe("Invalid run action: args.command is required.");
  });

  it("names a wrongly typed arg", () => {
    const e = errorOf(() => fromDict({ action: "run", args: { command: 5 } }));
    expect(e.field).toBe("args.command");
    expect(e.message).toMatch(/args\.command: .*expected string/);
  });

  it("names an unknown args key", () => {
    const e = errorOf(() => fromDict({ action: "browse", args: { url: "https://x", colour: "red" } }));
    expect(e.field).toBe("args.colour");
    expect(e.message).toContain("unknown key args.colour");
  });

  it("names nested paths with indices", () => {
    const e = errorOf(() =>
      fromDict({ action: "task_tracking", args: { command: "plan", task_list: [{ id: "1", title: "t", status: "open" }] } }),
    );
    expect(e.field).toBe("args.task_list[0].status");
  });

  it("names bad base keys and bad extras", () => {
    expect(errorOf(() => fromDict({ source: "robot", action: "null" })).field).toBe("source");
    expect(errorOf(() => fromDict({ agent: "robot", action: "null" })).field).toBe("agent");
    expect(errorOf(() => fromDict({ observation: "run", extras: { command: "ls", metadata: { exit_code: "0" } } })).field).toBe(
      "extras.metadata.exit_code",
    );
    expect(errorOf(() => fromDict({ observation: "success", extras: [] })).field).toBe("extras");
    expect(errorOf(() => fromDict({ action: "run", args: "ls" })).field).toBe("args");
  });

  it("does not mutate its input", () => {
    const input = { action: "run", args: { command: "ls", is_confirmed: "confirmed", timestamp: "t" } };
    const copy = structuredClone(input);
    fromDict(input);
    expect(input).toEqual(copy);
  });
});

describe("toDict", () => {
  const full: ArgusEvent = fromDict({
    timeout: 30,
    args: { command: "ls" },
    action: "run",
    agent: "planner",
    runId: "run-1",
    llm_metrics: { accumulated_cost: 0.01, accumulated_token_usage: { prompt_tokens: 10, completion_tokens: 2 } },
    tool_call_metadata: { function_name: "execute", tool_call_id: "call_1", total_calls_in_response: 1 },
    cause: 3,
    source: "agent",
    timestamp: "2025-01-01T00:00:00Z",
    id: 7,
  });

  it("emits top-level keys in the documented order with timeout last", () => {
    expect(Object.keys(toDict(full))).toEqual([
      "id",
      "timestamp",
      "source",
      "message",
      "cause",
      "action",
      "tool_call_metadata",
      "llm_metrics",
      "runId",
      "agent",
      "args",
      "timeout",
    ]);
  });

  it("orders observation keys and run metadata", () => {
    const e = fromDict({
      extras: { hidden: false, metadata: { suffix: "", exit_code: 0 }, command: "ls" },
      content: "a.txt",
      observation: "run",
      cause: 7,
      id: 8,
    });
    const d = toDict(e);
    expect(Object.keys(d)).toEqual(["id", "message", "cause", "observation", "content", "extras", "success"]);
    expect(Object.keys(d.extras as object)).toEqual(["command", "metadata", "hidden"]);
    expect(Object.keys((d.extras as { metadata: object }).metadata)).toEqual([
      "exit_code",
      "pid",
      "username",
      "hostname",
      "working_dir",
      "py_interpreter_path",
      "prefix",
      "suffix",
    ]);
  });

  it("orders args of events built in code, not just parsed ones", () => {
    const e = {
      action: "message",
      args: { security_risk: -1, wait_for_response: false, image_urls: null, file_urls: null, content: "hi" },
    } as ArgusEvent;
    expect(Object.keys(toDict(e).args as object)).toEqual(["content", "file_urls", "image_urls", "wait_for_response", "security_risk"]);
  });

  it("keeps unknown browse extras after the known ones", () => {
    const e = fromDict({ observation: "browse", extras: { dom_object: {}, url: "https://x", trigger_by_action: "browse" } });
    const keys = Object.keys(toDict(e).extras as object);
    expect(keys[0]).toBe("url");
    expect(keys.at(-1)).toBe("dom_object");
  });

  it("round-trips every kind", () => {
    const dicts = [
      { action: "message", args: { content: "hi", image_urls: ["/api/files/a"] }, source: "user" },
      { action: "run_ipython", args: { code: "1+1", thought: "add" }, agent: "planner" },
      { action: "write", args: { path: "f.py", content: "x" } },
      { action: "browse_interactive", args: { browser_actions: "click('1')" } },
      { action: "delegate", args: { agent: "coder", inputs: { task: "count" } } },
      { action: "reject", args: { outputs: { reason: "no images" } } },
      { action: "task_tracking", args: { command: "plan", task_list: [{ id: "1", title: "a", status: "done", notes: "n" }] } },
      { action: "interaction", args: { kind: "question", prompt: "Which?", options: ["a", "b"] } },
      { observation: "run_ipython", content: "2", extras: { code: "1+1", image_urls: ["/api/files/p"] } },
      { observation: "read", content: "x", extras: { path: "f.py" } },
      { observation: "write", extras: { path: "f.py" } },
      { observation: "success", content: "done" },
      { observation: "delegate", extras: { outputs: { code: "x" } } },
      { observation: "user_rejected", content: "no" },
      { observation: "agent_state_changed", extras: { agent_state: "error", reason: "boom" } },
      { observation: "null" },
    ];
    for (const d of dicts) {
      const once = toDict(fromDict(d));
      expect(toDict(fromDict(once))).toEqual(once);
    }
  });

  it("derives success only where OpenHands defines it", () => {
    expect(toDict(fromDict({ observation: "run_ipython", extras: { code: "" } })).success).toBe(true);
    expect(toDict(fromDict({ observation: "run", extras: { command: "x", metadata: { exit_code: 1 } } })).success).toBe(false);
    expect(toDict(fromDict({ observation: "error" }))).not.toHaveProperty("success");
    const obs = fromDict({ observation: "read", extras: { path: "a" } });
    if (!("observation" in obs)) throw new Error("unreachable");
    expect(observationSuccess(obs)).toBeUndefined();
  });

  it("returns a copy that cannot change the event", () => {
    const e = fromDict({ action: "finish", args: { outputs: { a: [1] } } });
    const d = toDict(e) as { args: { outputs: { a: number[] } } };
    d.args.outputs.a.push(2);
    expect(toDict(e).args).toEqual({ final_thought: "", outputs: { a: [1] }, thought: "" });
  });
});

describe("eventMessage", () => {
  it("describes each kind in Argus's words", () => {
    expect(eventMessage(fromDict({ action: "run", args: { command: "ls" } }))).toBe("Running command: ls");
    expect(eventMessage(fromDict({ action: "finish" }))).toBe("Finished.");
    expect(eventMessage(fromDict({ action: "finish", args: { final_thought: "All counted." } }))).toBe("All counted.");
    expect(eventMessage(fromDict({ action: "reject", args: { outputs: { reason: "blurry" } } }))).toContain("blurry");
    expect(eventMessage(fromDict({ action: "delegate", args: { agent: "coder" } }))).toContain("coder");
    expect(eventMessage(fromDict({ action: "interaction", args: { kind: "question", prompt: "Which one?" } }))).toBe("Which one?");
    expect(eventMessage(fromDict({ observation: "run", extras: { command: "ls", metadata: { exit_code: 0 } } }))).toContain("exited with code 0");
    expect(eventMessage(fromDict({ observation: "null" }))).toBe("");
  });
});

describe("toMemory", () => {
  it("drops ids, timing, bookkeeping and image urls", () => {
    const e = fromDict({
      id: 4,
      timestamp: "t",
      source: "agent",
      cause: 3,
      runId: "r",
      agent: "planner",
      action: "message",
      llm_metrics: { accumulated_token_usage: { prompt_tokens: 1, completion_tokens: 1 } },
      tool_call_metadata: { function_name: "f", tool_call_id: "c" },
      args: { content: "look", image_urls: ["/api/files/x"] },
    });
    expect(toMemory(e, { maxChars: 100 })).toEqual({
      source: "agent",
      action: "message",
      agent: "planner",
      args: { content: "look", file_urls: null, wait_for_response: false, security_risk: -1 },
    });
  });

  it("drops blocking and confirmation_state from run args", () => {
    const m = toMemory(fromDict({ action: "run", args: { command: "ls" } }), { maxChars: 10 });
    expect(m.args).not.toHaveProperty("blocking");
    expect(m.args).not.toHaveProperty("confirmation_state");
    expect(m.args).toHaveProperty("command", "ls");
  });

  it("cuts long observation content and drops extras image urls", () => {
    const content = "x".repeat(300);
    const m = toMemory(fromDict({ observation: "run_ipython", content, extras: { code: "c", image_urls: ["/a"] } }), {
      maxChars: 100,
    });
    // Cut to the limit by the one truncateMiddle (lib/foundation/text), which says how much went.
    expect(String(m.content).length).toBeLessThanOrEqual(100);
    expect(m.content).toMatch(/^x+\n\[\.\.\. \d+ characters omitted \.\.\.\]\nx+$/);
    expect(m.extras).toEqual({ code: "c" });
    expect(m.success).toBe(true);
  });

  it("drops bulky browser state", () => {
    const m = toMemory(
      fromDict({ observation: "browse", content: "page", extras: { url: "u", trigger_by_action: "browse", screenshot: "b64", dom_object: { big: 1 } } }),
      { maxChars: 100 },
    );
    expect(m.extras).not.toHaveProperty("screenshot");
    expect(m.extras).not.toHaveProperty("dom_object");
    expect(m.extras).toHaveProperty("url", "u");
  });
});
