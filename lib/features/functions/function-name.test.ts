import { describe, expect, it } from "vitest";
import { FUNCTION_NAME, functionName } from "./function-name";

describe("functionName", () => {
  it("picks the function the test calls, not its helpers", () => {
    const code = "from argus import *\n\ndef _mask(img):\n    return img\n\ndef count_coins(path):\n    return len(_mask(path))\n\ndef helper():\n    pass\n";
    expect(functionName(code, "print(count_coins('coins.png'))")).toBe("count_coins");
  });

  it("ignores nested defs and falls back to the last public top-level def", () => {
    const code = "def outer(p):\n    def inner(x):\n        return x\n    return inner(p)\n\ndef main(p):\n    return outer(p)\n";
    expect(functionName(code, "")).toBe("main");
  });

  it("is null without any def", () => {
    expect(functionName("x = 1\n", "print(x)")).toBeNull();
  });
});

describe("FUNCTION_NAME", () => {
  it("accepts identifiers only", () => {
    expect(FUNCTION_NAME.test("count_coins")).toBe(true);
    expect(FUNCTION_NAME.test("../etc")).toBe(false);
    expect(FUNCTION_NAME.test("1abc")).toBe(false);
  });
});
