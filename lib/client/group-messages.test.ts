import { describe, expect, it } from "vitest";
import { items as i, streamed, transcript } from "@/tests/helpers/chat-items";
import { groupMessages, lastUnansweredInteractionSeq, type DisplayItem } from "./group-messages";

describe("groupMessages", () => {
  const t = transcript();
  const msg = t.msg;
  const kinds = (items: DisplayItem[]) => items.map((x) => x.kind);

  it("pairs each cell with the output that follows and numbers turns per agent and run", () => {
    t.reset();
    const msgs = [
      msg(i.user("count coins")),
      msg(i.cell("planner", "look", "print(1)")),
      msg(i.printed("1", ["/api/files/p1"])),
      msg(i.cell("planner", "again", "print(2)")),
      msg(i.printed("2")),
      msg(i.plan("p")),
      msg(i.cell("coder", "", "test()")),
      msg(i.printed("ok")),
      msg(i.finalCode("f", "t")),
      msg(i.result("done")),
    ];
    const items = groupMessages(msgs);
    expect(kinds(items)).toEqual(["message", "turn", "turn", "plan", "turn", "final_code", "message"]);
    const turns = items.filter((x) => x.kind === "turn");
    expect(turns.map((x) => [x.agent, x.index, x.observation?.seq])).toEqual([
      ["planner", 1, 3],
      ["planner", 2, 5],
      ["coder", 1, 8],
    ]);
    expect(items.map((x) => x.key)).toEqual(["seq-1", "seq-2", "seq-4", "seq-6", "seq-7", "seq-9", "seq-10"]);
  });

  it("keeps a turn's key when its output arrives later (stable keys)", () => {
    t.reset();
    const step = msg(i.cell("planner", "t", "x"));
    const before = groupMessages([step]);
    expect(before[0]).toMatchObject({ kind: "turn", key: "seq-1", observation: null });
    const after = groupMessages([step, msg(i.printed("o"))]);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ kind: "turn", key: "seq-1", observation: { seq: 2 } });
  });

  it("pairs only an output that directly follows, keeping the transcript in seq order", () => {
    t.reset();
    const items = groupMessages([msg(i.cell("planner", "", "a")), msg(i.user("meanwhile")), msg(i.printed("o"))]);
    expect(kinds(items)).toEqual(["turn", "message", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("restarts turn numbers in a new run and never pairs across runs", () => {
    t.reset();
    const items = groupMessages([
      msg(i.cell("planner", "", "a"), { runId: "r1" }),
      msg(i.printed("o"), { runId: "r2" }),
      msg(i.cell("planner", "", "b"), { runId: "r2" }),
    ]);
    expect(kinds(items)).toEqual(["turn", "message", "turn"]);
    expect(items.map((x) => (x.kind === "turn" ? x.index : 0))).toEqual([1, 0, 1]);
  });

  it("does not give a cell an output from after an error or another step", () => {
    t.reset();
    const items = groupMessages([msg(i.cell("planner", "", "a")), msg(i.error("kernel died")), msg(i.printed("late"))]);
    expect(kinds(items)).toEqual(["turn", "error", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("shows task lists and notes as plain messages, ending the open step", () => {
    t.reset();
    const items = groupMessages([msg(i.cell("planner", "", "a")), msg(i.taskList(["count"])), msg(i.printed("stray"))]);
    expect(kinds(items)).toEqual(["turn", "message", "message"]);
    expect(items[0]).toMatchObject({ observation: null });
  });

  it("attaches each answer to the interaction it answers and hides it from the list", () => {
    t.reset();
    const items = groupMessages([msg(i.question("?")), msg(i.answer("yes")), msg(i.question("?"))]);
    expect(kinds(items)).toEqual(["interaction", "interaction"]);
    expect(items[0]).toMatchObject({ response: { seq: 2, item: { text: "yes" } }, responseInline: true });
    expect(items[1]).toMatchObject({ response: null });
    expect(lastUnansweredInteractionSeq(items)).toBe(3);
  });

  it("gives an answer to the newest open interaction; a lone answer stays a message", () => {
    t.reset();
    const items = groupMessages([msg(i.answer("orphan")), msg(i.question("?")), msg(i.toolReview("?", {})), msg(i.answer("a"))]);
    expect(kinds(items)).toEqual(["message", "interaction", "interaction"]);
    expect(items[1]).toMatchObject({ response: null });
    expect(items[2]).toMatchObject({ response: { item: { text: "a" } }, responseInline: true });
    expect(lastUnansweredInteractionSeq(items)).toBeUndefined();
  });

  it("lists an answer separately when messages came between it and its question (still marks it answered)", () => {
    t.reset();
    const items = groupMessages([msg(i.question("?")), msg(i.reply("note")), msg(i.answer("yes"))]);
    expect(kinds(items)).toEqual(["interaction", "message", "message"]);
    expect(items[0]).toMatchObject({ response: { seq: 3 }, responseInline: false });
    expect(items.map((x) => x.key)).toEqual(["seq-1", "seq-2", "seq-3"]);
  });

  it("offers Retry on the latest error only, until the person speaks again", () => {
    t.reset();
    const items = groupMessages([msg(i.error("one")), msg(i.user("again")), msg(i.error("two")), msg(i.reply("sorry"))]);
    expect(items.filter((x) => x.kind === "error").map((x) => x.kind === "error" && x.retryable)).toEqual([false, true]);
    const later = groupMessages([msg(i.error("x")), msg(i.user("new question"))]);
    expect(later.some((x) => x.kind === "error" && x.retryable)).toBe(false);
  });

  it("orders by seq and lets a re-sent seq replace the old copy", () => {
    const items = groupMessages([streamed(i.user("b"), 2), streamed(i.user("a"), 1), streamed(i.user("b2"), 2)]);
    expect(items.map((x) => (x.kind === "message" && x.message.item.type === "user" ? x.message.item.text : ""))).toEqual(["a", "b2"]);
  });

  it("pairs a browser action with its screen and numbers the browser's steps per run", () => {
    t.reset();
    const items = groupMessages([
      msg(i.user("browse")),
      msg(i.step("goto(http://lab/)", "goto")),
      msg(i.screen("")),
      msg(i.step("click(1, 2)")),
      msg(i.screen("click(1, 2)")),
      msg(i.step("It has 3 screws.", "done")),
      // A planner cell's output after "done" is not the browser's.
      msg(i.printed("3")),
    ]);
    expect(kinds(items)).toEqual(["message", "browser", "browser", "browser", "message"]);
    const steps = items.filter((x) => x.kind === "browser");
    expect(steps.map((s) => [s.index, s.step?.seq, s.observation?.seq, s.asked])).toEqual([
      [1, 2, 3, false],
      [2, 4, 5, false],
      [3, 6, undefined, false],
    ]);
  });

  it("lists the screen after a safety card as its own browser item, in seq order", () => {
    t.reset();
    const items = groupMessages([msg(i.step("type(secret)")), msg(i.safety("Type?", null)), msg(i.answer("Refuse")), msg(i.screen("type(secret)"))]);
    expect(kinds(items)).toEqual(["browser", "interaction", "browser"]);
    expect(items[0]).toMatchObject({ asked: true, observation: null });
    expect(items[1]).toMatchObject({ response: { seq: 3 }, responseInline: true });
    expect(items[2]).toMatchObject({ step: null, observation: { seq: 4 }, index: 0 });
  });

  it("does not give a browser screen to a planner cell, nor a cell's output to a browser step", () => {
    t.reset();
    const items = groupMessages([msg(i.cell("planner", "look", "print(1)")), msg(i.screen("")), msg(i.step("click(1, 2)")), msg(i.printed("1"))]);
    expect(kinds(items)).toEqual(["turn", "browser", "browser", "message"]);
  });

  it("reads the item, not the text: a plan whose JSON mentions a cell tag is still a plan", () => {
    t.reset();
    const items = groupMessages([msg(i.plan("Run <execute_python>x</execute_python> first")), msg(i.reply("<plan>{}</plan>", "planner"))]);
    expect(kinds(items)).toEqual(["plan", "message"]);
  });

  it("is empty for no messages", () => {
    expect(groupMessages([])).toEqual([]);
    expect(lastUnansweredInteractionSeq([])).toBeUndefined();
  });
});
