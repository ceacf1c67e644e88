import type { Scenario } from "@/scripted-model/server";

/**
 * The end of the resume tests' runs (scale-out-resume*.test.ts): the planner's plan for "41 plus
 * one", the coder's function and test, and the conversation's reply, which is only given once the
 * coder's test printed "answer: 42".
 */
export const ANSWER_42_TURNS: Scenario["turns"] = [
  { model: "planner", toolCalls: [{ name: "submit_plan", args: { plan: "The answer is 42.", instructions: ["add one to 41"], code: "def answer():\n    return 41 + 1" } }] },
  { model: "coder", toolCalls: [{ name: "write_code", args: { code: "def answer():\n    return 41 + 1" } }] },
  { model: "coder", toolCalls: [{ name: "write_test", args: { test: "print('answer:', answer())" } }] },
  { model: "conversation", expect: { contains: "answer: 42" }, toolCalls: [{ name: "reply", args: { response: "The answer is **42**." } }] },
];
