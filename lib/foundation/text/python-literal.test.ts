import { describe, expect, it } from "vitest";
import { parsePythonLiteral, PythonLiteralError } from "./python-literal";

// Expected values are what CPython 3.11's ast.literal_eval returns for the same text; of the
// refused ones, bytes, sets, complex numbers, non-string keys and \N{…} are Python literals that
// JSON cannot hold (or that need the Unicode name table), refused on purpose.
describe("parsePythonLiteral", () => {
  it("reads the file-editor argument dicts of old OpenHands streams", () => {
    expect(parsePythonLiteral("{'command': 'view', 'path': '/workspace/test.txt'}")).toEqual({
      command: "view",
      path: "/workspace/test.txt",
    });
    expect(parsePythonLiteral("{'command': 'view', 'path': '/a.py', 'view_range': [1, 20]}")).toEqual({
      command: "view",
      path: "/a.py",
      view_range: [1, 20],
    });
  });

  it("reads constants, signed and written-out numbers", () => {
    expect(parsePythonLiteral("None")).toBeNull();
    expect(parsePythonLiteral("True")).toBe(true);
    expect(parsePythonLiteral("False")).toBe(false);
    expect(parsePythonLiteral("-1")).toBe(-1);
    expect(parsePythonLiteral("+2.5e3")).toBe(2500);
    expect(parsePythonLiteral(".5")).toBe(0.5);
    expect(parsePythonLiteral("1_000")).toBe(1000);
    expect(parsePythonLiteral("0x1F")).toBe(31);
    expect(parsePythonLiteral("0o17")).toBe(15);
    expect(parsePythonLiteral("0b101")).toBe(5);
    expect(parsePythonLiteral("00")).toBe(0);
    expect(parsePythonLiteral("-(3)")).toBe(-3);
  });

  it("reads strings as Python does: quotes, escapes, raw, triple-quoted and joined", () => {
    expect(parsePythonLiteral(`'it\\'s'`)).toBe("it's");
    expect(parsePythonLiteral(`"say \\"hi\\""`)).toBe('say "hi"');
    expect(parsePythonLiteral(`'a\\nb\\tc\\\\d'`)).toBe("a\nb\tc\\d");
    expect(parsePythonLiteral(`'\\x41\\u00e9\\U0001F600\\101\\0'`)).toBe("Aé😀A\0");
    expect(parsePythonLiteral(`'keep \\d unknown'`)).toBe("keep \\d unknown");
    expect(parsePythonLiteral(`r'C:\\new\\'x'`)).toBe("C:\\new\\'x");
    expect(parsePythonLiteral(`u'plain'`)).toBe("plain");
    expect(parsePythonLiteral(`'''one\n'two'\nthree'''`)).toBe("one\n'two'\nthree");
    expect(parsePythonLiteral(`'ab' "cd"  'ef'`)).toBe("abcdef");
    expect(parsePythonLiteral(`'line \\\ncontinued'`)).toBe("line continued");
  });

  it("reads nested lists, tuples and dicts, with trailing commas", () => {
    expect(parsePythonLiteral("[1, (2, 3), (4,), (), {'k': [None]},]")).toEqual([1, [2, 3], [4], [], { k: [null] }]);
    expect(parsePythonLiteral("{\n  'a': 1,\n  'a': 2,\n}")).toEqual({ a: 2 });
    expect(parsePythonLiteral("{}")).toEqual({});
  });

  it("keeps __proto__ as a plain key", () => {
    const d = parsePythonLiteral("{'__proto__': {'polluted': True}}") as Record<string, unknown>;
    expect(Object.keys(d)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["a name", "open('x')"],
    ["a call inside", "{'a': f(1)}"],
    ["a bytes literal", "b'x'"],
    ["an f-string", "f'{x}'"],
    ["a set", "{1, 2}"],
    ["a non-string key", "{1: 'a'}"],
    ["a complex number", "2j"],
    ["leading zeros", "007"],
    ["an unterminated string", "'abc"],
    ["a line break in a one-line string", "'a\nb'"],
    ["text after the literal", "{'a': 1} + 1"],
    ["a sign before a string", "-'a'"],
    ["a missing comma", "[1 2]"],
    ["nothing", ""],
    ["a \\N escape", "'\\N{BULLET}'"],
    ["very deep nesting", "[".repeat(500) + "]".repeat(500)],
  ])("refuses %s", (_what, src) => {
    expect(() => parsePythonLiteral(src)).toThrow(PythonLiteralError);
  });
});
