import { describe, expect, it } from "vitest";
import { looseToStrictJson, readArguments } from "./repair-args";

const args = { thinking: "Segment.", code: 'print("24 coins")' };

describe("readArguments", () => {
  it("reads plain JSON with no repairs, and '' as no arguments", () => {
    expect(readArguments(JSON.stringify(args))).toEqual({ ok: true, value: args, repairs: [] });
    expect(readArguments("  ")).toEqual({ ok: true, value: {}, repairs: [] });
  });

  it("reads a JSON string holding the object (double-encoded)", () => {
    expect(readArguments(JSON.stringify(JSON.stringify(args)))).toEqual({ ok: true, value: args, repairs: ["double_encoded"] });
  });

  it("reads trailing commas and single quotes", () => {
    const loose = `{'thinking': 'Segment.', 'code': 'print("24 coins")', 'n': [1, 2,],}`;
    expect(readArguments(loose)).toEqual({ ok: true, value: { ...args, n: [1, 2] }, repairs: ["loose_json"] });
    expect(readArguments(`{'code': 'it\\'s'}`)).toEqual({ ok: true, value: { code: "it's" }, repairs: ["loose_json"] });
  });

  it("keeps commas and quotes inside double-quoted strings", () => {
    const text = JSON.stringify({ code: "x = [1, 2,]\nprint('a', )" });
    expect(readArguments(text)).toEqual({ ok: true, value: { code: "x = [1, 2,]\nprint('a', )" }, repairs: [] });
  });

  it("reads an object in a ```json fence", () => {
    expect(readArguments("```json\n" + JSON.stringify(args) + "\n```")).toEqual({ ok: true, value: args, repairs: ["fenced_json"] });
  });

  it("fails on ambiguous text, quoting where reading stopped", () => {
    const broken = `{"code": "print(1)" "thinking": "x"}`;
    const read = readArguments(broken);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toMatch(/near: .*"print\(1\)" "thinking/);
    const cut = readArguments(`{"code": "print(`);
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.error).toMatch(/print\(/);
  });

  it("fails on a JSON string holding broken JSON, saying so", () => {
    const read = readArguments(JSON.stringify(`{"code": `));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toMatch(/JSON string holding broken JSON/);
  });

  it("leaves a JSON string that holds no JSON as a string (the schema says whether that fits)", () => {
    expect(readArguments(JSON.stringify("print(1)"))).toEqual({ ok: true, value: "print(1)", repairs: [] });
  });
});

describe("looseToStrictJson", () => {
  it("is undefined for text it did not change", () => {
    expect(looseToStrictJson('{"a": 1}')).toBeUndefined();
  });
});
