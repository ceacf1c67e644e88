import { describe, expect, it } from "vitest";
import { fromDict } from "./serialization";
import { pendingInteraction } from "./pending-interaction";

const ask = (id: number) =>
  fromDict({ id, source: "agent", agent: "planner", runId: "r", action: "interaction", args: { kind: "question", prompt: `Which one? (${id})`, options: ["A", "B"] } });
const answer = (id: number, cause: number) =>
  fromDict({ id, source: "user", agent: "user", cause, runId: "r", action: "message", args: { content: "A" } });
const say = (id: number) => fromDict({ id, source: "user", agent: "user", action: "message", args: { content: "hi" } });

describe("pendingInteraction", () => {
  it("finds the question still waiting for an answer", () => {
    expect(pendingInteraction([say(1), ask(2)])).toEqual({
      seq: 2,
      runId: "r",
      kind: "question",
      prompt: "Which one? (2)",
      options: ["A", "B"],
      payload: null,
    });
  });
  it("is null once the question is answered, or when there is none", () => {
    expect(pendingInteraction([ask(1), answer(2, 1)])).toBeNull();
    expect(pendingInteraction([say(1)])).toBeNull();
    expect(pendingInteraction([])).toBeNull();
  });
  it("only counts an answer that names this question", () => {
    expect(pendingInteraction([ask(1), answer(2, 1), ask(3), say(4)])?.seq).toBe(3);
    expect(pendingInteraction([ask(1), answer(2, 1), ask(3), answer(4, 3)])).toBeNull();
  });
});
