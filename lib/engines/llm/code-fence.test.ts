import { describe, expect, it } from "vitest";
import { unwrapCodeFence } from "./code-fence";

const code = "import numpy as np\nprint(np.zeros(3))";

describe("unwrapCodeFence", () => {
  it("unwraps one fenced block, with or without a language", () => {
    expect(unwrapCodeFence("```python\n" + code + "\n```")).toBe(code);
    expect(unwrapCodeFence("```\n" + code + "\n```")).toBe(code);
    expect(unwrapCodeFence("```py\n" + code + "\n```\n")).toBe(code);
  });

  it("unwraps with whitespace around it", () => {
    expect(unwrapCodeFence("\n\n  ```python\n" + code + "\n```  \n\n")).toBe(code);
  });

  it("unwraps after a sentence or two of prose", () => {
    expect(unwrapCodeFence("Here is the code:\n```python\n" + code + "\n```")).toBe(code);
    expect(unwrapCodeFence("Let me count the coins.\nI'll use a watershed.\n\n```python\n" + code + "\n```")).toBe(code);
  });

  it("unwraps a closing fence written right after the last line", () => {
    expect(unwrapCodeFence("```python\n" + code + "```")).toBe(code);
  });

  it("keeps indentation and blank lines inside the block", () => {
    const body = "def f(x):\n\n    return x\n";
    expect(unwrapCodeFence("```python\n" + body + "```")).toBe(body.replace(/\n$/, ""));
  });

  it("leaves code alone that only holds backticks inside strings", () => {
    const fenced = 'fence = "```"\nprint(fence + "python")';
    expect(unwrapCodeFence(fenced)).toBeUndefined();
    expect(unwrapCodeFence('md = """\n```python\nx = 1\n```\n"""\nprint(md)')).toBeUndefined();
    expect(unwrapCodeFence(code)).toBeUndefined();
  });

  it("leaves several blocks, or code before the fence, alone", () => {
    expect(unwrapCodeFence("```python\nx = 1\n```\n```python\ny = 2\n```")).toBeUndefined();
    expect(unwrapCodeFence("x = 1\n```python\ny = 2\n```")).toBeUndefined();
  });
});
