/**
 * Which turn answers a request when a caller sends a request again because it lost the answer:
 * a run's owner was killed after the model had answered but before the step was logged, and the
 * instance that took the run over takes that step again with the very same request.
 */
import { describe, expect, it } from "vitest";
import { TurnQueue } from "./queue";
import type { ChatRequest } from "./request";
import { parseScenario, type Scenario } from "./scenario";

const ask = (model: string, content: string): ChatRequest => ({ model, messages: [{ role: "user", content }], tools: [{ type: "function", function: { name: "reply" } }] });
const reply = (response: string, contains?: string) => ({ model: "conversation", toolCalls: [{ name: "reply", args: { response } }], ...(contains ? { expect: { contains } } : {}) });

/** A run's conversation: a first reply, then (after work elsewhere) the closing one that must carry the result. */
const run = (extra: Partial<Scenario> = {}): Scenario =>
  parseScenario({ name: "moved run", turns: [reply("Let me count."), { model: "planner", toolCalls: [{ name: "execute_python", args: { code: "print(1)" } }] }, reply("There are 6.", "count: 6")], ...extra });

const turnOf = (queue: TurnQueue, request: ChatRequest) => {
  const d = queue.take(request);
  return d.kind === "answer" ? d.turnNumber : d.kind === "mismatch" ? d.message : d.kind;
};

describe("a request sent again after its answer was lost", () => {
  it("gets the same turn again when the scenario says a repeated request is a lost answer", () => {
    const queue = new TurnQueue(run({ repeatedRequests: "answer_again" }));
    const first = ask("conversation", "PERSON: how many?");
    expect(turnOf(queue, first)).toBe(1);
    // The owner died with turn 1's answer; the new owner asks the same thing: a real model answers it again.
    expect(turnOf(queue, structuredClone(first))).toBe(1);
    // The run goes on: the next, different requests take the next turns.
    expect(turnOf(queue, ask("planner", "explore"))).toBe(2);
    expect(turnOf(queue, ask("conversation", "PERSON: how many?\n\ncount: 6"))).toBe(3);
    expect(queue.used()).toEqual([1, 1, 2, 3]);
    expect(queue.remaining()).toEqual({ conversation: 0, planner: 0 });
  });

  it("every step of a repeated step of several calls gets its answer again; a different request, or the same words to another model, takes the next turn", () => {
    const queue = new TurnQueue(run({ repeatedRequests: "answer_again" }));
    const first = ask("conversation", "PERSON: how many?");
    expect(turnOf(queue, first)).toBe(1);
    expect(turnOf(queue, ask("planner", "PERSON: how many?"))).toBe(2);
    // An older request than the last one answered (the first of a step's two calls) is answered again too.
    expect(turnOf(queue, first)).toBe(1);
    expect(turnOf(queue, ask("planner", "PERSON: how many?"))).toBe(2);
    expect(turnOf(queue, ask("conversation", "PERSON: how many? (edited)"))).toMatch(/turn 3 .*expected the request to contain "count: 6"/);
  });

  it("a step of two calls repeated after both were answered (the coder's write: code, then test) gets both answers again, in order", () => {
    const coder = (name: string) => ({ model: "coder", toolCalls: [{ name, args: {} }] });
    const queue = new TurnQueue(parseScenario({ name: "coder moved", repeatedRequests: "answer_again", turns: [coder("write_code"), coder("write_test"), reply("Done.")] }));
    const code = ask("coder", "Write the function."), test = ask("coder", "Now write its test.");
    expect([turnOf(queue, code), turnOf(queue, test)]).toEqual([1, 2]);
    expect([turnOf(queue, structuredClone(code)), turnOf(queue, structuredClone(test))]).toEqual([1, 2]);
    expect(turnOf(queue, ask("conversation", "report"))).toBe(3);
  });

  it("takes the next turn by default, so a scenario that scripts two answers to one request still gets both", () => {
    const queue = new TurnQueue(run());
    const first = ask("conversation", "PERSON: how many?");
    expect(turnOf(queue, first)).toBe(1);
    expect(turnOf(queue, first)).toMatch(/turn 3 \(model conversation\) expected the request to contain "count: 6"/);
  });

  it("does not answer again a turn that answered with a fault: the retry after a 503 takes the next turn", () => {
    const queue = new TurnQueue(
      parseScenario({ name: "retry", repeatedRequests: "answer_again", turns: [{ ...reply("x"), fault: { status: 503 } }, reply("Hello.")] }),
    );
    const hello = ask("conversation", "hi");
    expect(queue.take(hello).kind).toBe("fault");
    expect(turnOf(queue, hello)).toBe(2);
  });

  it("is refused as a scenario field with an unknown value", () => {
    expect(() => parseScenario({ name: "bad", repeatedRequests: "sometimes", turns: [reply("x")] })).toThrow(/repeatedRequests/);
  });
});
