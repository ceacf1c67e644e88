import { describe, expect, it } from "vitest";
import { aliasesOf, resolveToolName } from "./tool-aliases";

describe("tool aliases", () => {
  it("maps a trained-on name to the offered tool", () => {
    for (const alias of ["python", "run_code", "code_interpreter", "ipython"]) expect(resolveToolName(alias, ["execute_python", "ask_user"])).toBe("execute_python");
    expect(resolveToolName("final_answer", ["reply"])).toBe("reply");
    expect(resolveToolName("answer", ["reply"])).toBe("reply");
  });

  it("maps only to a tool that is offered, and leaves real names alone", () => {
    expect(resolveToolName("python", ["write_code"])).toBeUndefined();
    expect(resolveToolName("final_answer", ["execute_python"])).toBeUndefined();
    expect(resolveToolName("execute_python", ["execute_python"])).toBe("execute_python");
    expect(resolveToolName("bash", ["execute_python"])).toBeUndefined();
  });

  it("lists the aliases of the offered tools", () => {
    expect(aliasesOf(["reply"])).toEqual(["final_answer", "answer"]);
    expect(aliasesOf(["write_code"])).toEqual([]);
  });
});
