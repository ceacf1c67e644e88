import { describe, expect, it } from "vitest";
import { CappedText } from "./capped-text";
import { ExecutionCollector, stripAnsi } from "./execution-collector";

const msg = (msg_type: string, content: Record<string, unknown>) => ({ header: { msg_type }, content });

describe("ExecutionCollector", () => {
  it("gathers streams, displays, the cell value and the count", () => {
    const c = new ExecutionCollector();
    c.push(msg("status", { execution_state: "busy" }));
    c.push(msg("execute_input", { code: "x", execution_count: 7 }));
    c.push(msg("stream", { name: "stdout", text: "a\n" }));
    c.push(msg("stream", { name: "stderr", text: "warn\n" }));
    c.push(msg("stream", { name: "stdout", text: "b\n" }));
    c.push(msg("display_data", { data: { "image/png": "iVBOR", "text/plain": ["<Figure ", "1>"] }, metadata: {} }));
    c.push(msg("display_data", { data: { "image/png": "AAAA" }, metadata: { argus: { view: true } } }));
    c.push(msg("execute_result", { data: { "text/plain": "42", "application/json": { a: 1 } }, metadata: {} }));
    expect(c.executionCount).toBe(7);
    expect(c.result()).toEqual({
      stdout: "a\nb\n",
      stderr: "warn\n",
      error: null,
      results: [
        { data: { "image/png": "iVBOR", "text/plain": "<Figure 1>" }, isMain: false, viewed: false },
        { data: { "image/png": "AAAA" }, isMain: false, viewed: true },
        { data: { "text/plain": "42", "application/json": '{"a":1}' }, isMain: true, viewed: false },
      ],
    });
  });

  it("keeps the error with ANSI codes stripped", () => {
    const c = new ExecutionCollector();
    c.push(msg("error", { ename: "ZeroDivisionError", evalue: "division by zero", traceback: ["\u001b[0;31mZeroDivisionError\u001b[0m", "line 1"] }));
    expect(c.result().error).toEqual({ name: "ZeroDivisionError", value: "division by zero", traceback: "ZeroDivisionError\nline 1" });
    expect(stripAnsi("\u001b[1;32mok\u001b[0m")).toBe("ok");
  });

  it("honours clear_output and caps the number of results", () => {
    const c = new ExecutionCollector({ streamHead: 100, streamTail: 100, maxResults: 2, maxResultChars: 1000 });
    c.push(msg("stream", { name: "stdout", text: "old" }));
    c.push(msg("display_data", { data: { "text/plain": "1" } }));
    c.push(msg("clear_output", { wait: false }));
    for (const n of ["2", "3", "4"]) c.push(msg("display_data", { data: { "text/plain": n } }));
    const r = c.result();
    expect(r.stdout).toBe("");
    expect(r.results.map((x) => x.data["text/plain"])).toEqual(["3", "4"]);
    expect(r.stderr).toMatch(/1 display outputs omitted/);
  });

  it("caps the characters of display data it keeps: the last results win, and one too large alone is dropped", () => {
    const c = new ExecutionCollector({ streamHead: 100, streamTail: 100, maxResults: 50, maxResultChars: 1000 });
    for (const n of "abcd") c.push(msg("display_data", { data: { "text/plain": n.repeat(400) } }));
    c.push(msg("display_data", { data: { "text/plain": "e".repeat(1001) } }));
    const r = c.result();
    expect(r.results.map((x) => x.data["text/plain"]![0])).toEqual(["c", "d"]);
    expect(r.stderr).toMatch(/3 display outputs omitted/);
  });

  it("records failures the kernel could not report", () => {
    const c = new ExecutionCollector();
    c.fail("TimeoutError", "The cell ran longer than 1 s");
    expect(c.result().error?.name).toBe("TimeoutError");
    expect(c.hasError).toBe(true);
  });
});

describe("CappedText", () => {
  it("keeps everything while small", () => {
    const t = new CappedText(10, 10);
    t.append("hello ");
    t.append("world");
    expect(t.toString()).toBe("hello world");
    expect(t.omitted).toBe(0);
  });

  it("keeps the head and the tail of a flood, saying how much was omitted", () => {
    const t = new CappedText(5, 5);
    for (let i = 0; i < 1000; i++) t.append("0123456789");
    expect(t.omitted).toBe(10_000 - 10);
    expect(t.toString()).toBe(`01234\n[... 9990 characters of output omitted ...]\n56789`);
  });
});
