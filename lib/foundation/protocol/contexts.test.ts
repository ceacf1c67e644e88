import { describe, expect, it } from "vitest";
import {
  CodeContextSchema,
  ErrorContextSchema,
  ExecutionSchema,
  InteractionContextSchema,
  PlanContextSchema,
} from "./contexts";

const execution = {
  results: [
    { data: { "text/plain": "3", "image/png": "iVBORw0KGgo=" }, isMain: true },
    { data: { "application/json": '{"request":{}}' }, isMain: false },
  ],
  stdout: "counted\n",
  stderr: "",
  error: null,
};

describe("Execution", () => {
  it("accepts mime bundles of strings, marking results not viewed by default", () => {
    const parsed = ExecutionSchema.parse(execution);
    expect(parsed).toEqual({ ...execution, results: execution.results.map((r) => ({ ...r, viewed: false })) });
    const viewed = { ...execution, results: [{ data: { "image/png": "iVBORw0KGgo=" }, isMain: false, viewed: true }] };
    expect(ExecutionSchema.parse(viewed).results[0]?.viewed).toBe(true);
  });

  it("accepts an error with name, value and traceback", () => {
    const failed = { ...execution, results: [], error: { name: "ValueError", value: "bad", traceback: "Traceback..." } };
    expect(ExecutionSchema.parse(failed).error?.name).toBe("ValueError");
  });

  it("rejects non-string bundle data (JSON must be stringified first)", () => {
    const bad = { ...execution, results: [{ data: { "application/json": { a: 1 } }, isMain: false }] };
    expect(ExecutionSchema.safeParse(bad).success).toBe(false);
  });
});

describe("contexts", () => {
  it("PlanContext defaults code to an empty string but requires instructions", () => {
    expect(PlanContextSchema.parse({ plan: "p", instructions: ["a"] })).toEqual({ plan: "p", instructions: ["a"], code: "" });
    expect(PlanContextSchema.safeParse({ plan: "p" }).success).toBe(false);
  });

  it("CodeContext carries the test's output as text, and a summary", () => {
    const ctx = CodeContextSchema.parse({ code: "def f(): pass", test: "f()", success: true, testResult: "counted\n", summary: "It worked." });
    expect(ctx.testResult).toBe("counted\n");
    expect(CodeContextSchema.safeParse({ code: "", test: "", success: "yes", testResult: "", summary: "" }).success).toBe(false);
    expect(CodeContextSchema.safeParse({ code: "", test: "", success: true, testResult: execution, summary: "" }).success).toBe(false);
  });

  it("InteractionContext holds AgentMessages", () => {
    const chat = [{ role: "interaction", content: "<interaction>{}</interaction>" }];
    expect(InteractionContextSchema.parse({ chat })).toEqual({ chat });
    expect(InteractionContextSchema.safeParse({ chat: [{ role: "robot", content: "" }] }).success).toBe(false);
  });

  it("ErrorContext holds a string", () => {
    expect(ErrorContextSchema.parse({ error: "refused" })).toEqual({ error: "refused" });
  });
});
