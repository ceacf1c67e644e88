import { describe, expect, it } from "vitest";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { fromDict } from "./serialization";
import { detectStuck, sameStep } from "./stuck-detector";

const userSays = (content: string) => fromDict({ source: "user", action: "message", args: { content } });
const agentSays = (content: string) => fromDict({ source: "agent", action: "message", args: { content } });
const cell = (code: string, thought = "") => fromDict({ source: "agent", action: "run_ipython", args: { code, thought } });
const cellOut = (content: string) => fromDict({ observation: "run_ipython", content, extras: { code: "" } });
const run = (command: string) => fromDict({ source: "agent", action: "run", args: { command } });
const ran = (command: string, content: string, exit_code = 0, pid = -1) =>
  fromDict({ observation: "run", content, extras: { command, metadata: { exit_code, pid } } });
const error = (content: string) => fromDict({ observation: "error", content });
const nothing = () => fromDict({ observation: "null" });

const headless = { headless: true };
const interactive = { headless: false };

function repeat(n: number, ...events: ArgusEvent[]): ArgusEvent[] {
  return Array.from({ length: n }, () => events).flat();
}

describe("sameStep", () => {
  it("ignores bookkeeping but not payload", () => {
    const a = fromDict({ id: 1, timestamp: "t1", source: "agent", runId: "a", agent: "planner", action: "run", args: { command: "ls" } });
    const b = fromDict({ id: 9, timestamp: "t2", source: "user", runId: "b", agent: "coder", cause: 3, action: "run", args: { command: "ls" } });
    expect(sameStep(a, b)).toBe(true);
    expect(sameStep(a, run("pwd"))).toBe(false);
    expect(sameStep(a, ran("ls", ""))).toBe(false);
  });

  it("compares nested values regardless of key order", () => {
    const a = fromDict({ action: "finish", args: { outputs: { a: 1, b: [1, { c: 2 }] } } });
    const b = fromDict({ action: "finish", args: { outputs: { b: [1, { c: 2 }], a: 1 } } });
    expect(sameStep(a, b)).toBe(true);
  });
});

describe("detectStuck: basics", () => {
  it("needs at least three events after filtering", () => {
    expect(detectStuck([], headless)).toBeNull();
    expect(detectStuck([userSays("hi"), nothing(), run("ls"), ran("ls", "")], headless)).toBeNull();
  });

  it("is not stuck on varied work", () => {
    const history = [userSays("count"), cell("a=1"), cellOut("1"), cell("b=2"), cellOut("2"), cell("c=3"), cellOut("3"), agentSays("3 coins")];
    expect(detectStuck(history, headless)).toBeNull();
  });
});

describe("repeating_action_observation", () => {
  it("fires on four identical action/observation pairs", () => {
    const history = [userSays("go"), ...repeat(4, cell("x = 1"), cellOut("done"))];
    expect(detectStuck(history, headless)).toEqual({ loopType: "repeating_action_observation", repeatTimes: 4, loopStartIdx: 0 });
  });

  it("needs four of each", () => {
    expect(detectStuck(repeat(3, cell("x = 1"), cellOut("done")), headless)).toBeNull();
  });

  it("compares run observations by command and exit code only", () => {
    const history = [run("ls"), ran("ls", "a", 0, 1), run("ls"), ran("ls", "b", 0, 2), run("ls"), ran("ls", "c", 0, 3), run("ls"), ran("ls", "d", 0, 4)];
    expect(detectStuck(history, headless)?.loopType).toBe("repeating_action_observation");
    const differentExit = [...history.slice(0, 7), ran("ls", "d", 1, 4)];
    expect(detectStuck(differentExit, headless)).toBeNull();
  });

  it("compares edit_file_by_replace cells by their first three lines", () => {
    const edit = (tail: string) => cell(`edit_file_by_replace(\n  'a.py',\n  to_replace='x',\n  new_content='${tail}')`);
    const history = [edit("1"), cellOut("ok"), edit("2"), cellOut("ok"), edit("3"), cellOut("ok"), edit("4"), cellOut("ok")];
    expect(detectStuck(history, headless)?.loopType).toBe("repeating_action_observation");
  });

  it("does not loosen short edit cells", () => {
    const edit = (tail: string) => cell(`edit_file_by_replace('a.py', '${tail}')`);
    const history = [edit("1"), cellOut("ok"), edit("2"), cellOut("ok"), edit("3"), cellOut("ok"), edit("4"), cellOut("ok")];
    expect(detectStuck(history, headless)).toBeNull();
  });

  it("reports the first event equal to the oldest repeated action, like upstream list.index", () => {
    // The same cell ran once long before the loop; upstream points at that one.
    const history = [cell("x = 1"), cellOut("first"), cell("y"), cellOut("y"), ...repeat(4, cell("x = 1"), cellOut("done"))];
    expect(detectStuck(history, headless)?.loopStartIdx).toBe(0);
  });
});

describe("repeating_action_error", () => {
  it("fires on three identical actions ending in errors", () => {
    const history = [userSays("go"), run("bad"), error("not found"), run("bad"), error("nope"), run("bad"), error("still")];
    expect(detectStuck(history, headless)).toEqual({ loopType: "repeating_action_error", repeatTimes: 3, loopStartIdx: 0 });
  });

  it("needs every one of the last three observations to be an error", () => {
    const history = [run("bad"), error("a"), run("bad"), ran("bad", "?"), run("bad"), error("c")];
    expect(detectStuck(history, headless)).toBeNull();
  });

  const footer = "[Jupyter current working directory: /w]\n[Jupyter Python interpreter: /usr/bin/python3]";

  it("fires on the same unterminated string literal error", () => {
    const out = `  Cell In[1], line 1\n    print('a)\n          ^\nSyntaxError: unterminated string literal (detected at line 1)\n${footer}`;
    const history = repeat(3, cell("print('a)"), cellOut(out));
    // Not a pure repeat (only 3), so the error rule is what catches it.
    expect(detectStuck(history, headless)?.loopType).toBe("repeating_action_error");
  });

  it("fires on the same invalid syntax error from the same cell line", () => {
    const out = (n: number) =>
      `Cell In[1], line 2\n    f(a b)\n      ^\nx${n}\ny\nSyntaxError: invalid syntax. Perhaps you forgot a comma?\n${footer}`;
    const history = [cell("f(a b)"), cellOut(out(1)), cell("f(a b)"), cellOut(out(2)), cell("f(a b)"), cellOut(out(3))];
    expect(detectStuck(history, headless)?.loopType).toBe("repeating_action_error");
  });

  it("ignores syntax errors without the kernel footer", () => {
    const out = "Cell In[1], line 1\n a\n b\n c\n d\nSyntaxError: incomplete input";
    expect(detectStuck(repeat(3, cell("f("), cellOut(out)), headless)).toBeNull();
  });
});

describe("monologue", () => {
  it("fires on three identical agent messages", () => {
    const history = [userSays("hi"), agentSays("hello"), agentSays("hello"), agentSays("hello")];
    expect(detectStuck(history, headless)).toEqual({ loopType: "monologue", repeatTimes: 3, loopStartIdx: 0 });
  });

  it("is broken by an observation in between", () => {
    const history = [agentSays("hello"), agentSays("hello"), cell("x"), cellOut("1"), agentSays("hello")];
    expect(detectStuck(history, headless)).toBeNull();
  });

  it("tolerates an action in between", () => {
    const history = [agentSays("hello"), cell("x"), agentSays("hello"), agentSays("hello")];
    expect(detectStuck(history, headless)?.loopType).toBe("monologue");
  });
});

describe("repeating_action_observation_pattern", () => {
  it("fires on A-B ping-pong over six steps", () => {
    const history = repeat(3, cell("a"), cellOut("A"), cell("b"), cellOut("B"));
    expect(detectStuck(history, headless)).toEqual({
      loopType: "repeating_action_observation_pattern",
      repeatTimes: 3,
      loopStartIdx: 0,
    });
  });

  it("needs the observations to alternate too", () => {
    const history = [cell("a"), cellOut("1"), cell("b"), cellOut("2"), cell("a"), cellOut("3"), cell("b"), cellOut("4"), cell("a"), cellOut("5"), cell("b"), cellOut("6")];
    expect(detectStuck(history, headless)).toBeNull();
  });
});

describe("interactive mode", () => {
  it("only looks after the last user message and offsets the index", () => {
    const loop = repeat(4, cell("x"), cellOut("1"));
    const history = [cell("warmup"), cellOut("w"), userSays("try again"), ...loop];
    expect(detectStuck(history, interactive)).toEqual({ loopType: "repeating_action_observation", repeatTimes: 4, loopStartIdx: 3 });
  });

  it("a new user message resets the window", () => {
    const history = [...repeat(4, cell("x"), cellOut("1")), userSays("stop that"), cell("x"), cellOut("1")];
    expect(detectStuck(history, interactive)).toBeNull();
    expect(detectStuck(history, headless)?.loopType).toBe("repeating_action_observation");
  });

  it("offsets monologue indices as well", () => {
    const history = [agentSays("a"), userSays("hm"), agentSays("same"), agentSays("same"), agentSays("same")];
    expect(detectStuck(history, interactive)).toEqual({ loopType: "monologue", repeatTimes: 3, loopStartIdx: 2 });
  });

  it("without any user message behaves like headless", () => {
    const history = repeat(4, cell("x"), cellOut("1"));
    expect(detectStuck(history, interactive)).toEqual(detectStuck(history, headless));
  });
});
