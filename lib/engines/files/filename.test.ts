import { describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { cleanUploadName, uniqueName } from "@/lib/engines/files/filename";

function refusal(raw: string): ArgusError {
  try {
    cleanUploadName(raw);
  } catch (error) {
    if (error instanceof ArgusError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe("cleanUploadName", () => {
  it("keeps an ordinary name", () => {
    expect(cleanUploadName("holiday photo.jpg")).toBe("holiday photo.jpg");
  });

  it("trims surrounding whitespace", () => {
    expect(cleanUploadName("  scan 01.png \n")).toBe("scan 01.png");
  });

  it("normalises to NFC so macOS names compare equal", () => {
    const decomposed = "Cafe\u0301.png";
    expect(cleanUploadName(decomposed)).toBe("Caf\u00e9.png");
  });

  it("allows a name starting with a single dot and names with inner dots", () => {
    expect(cleanUploadName(".hidden.png")).toBe(".hidden.png");
    expect(cleanUploadName("v1..2.png")).toBe("v1..2.png");
  });

  it.each([
    ["../../x.png", "slash"],
    ["a/b.png", "slash"],
    ["a\\b.png", "slash"],
    ["..", '"."'],
    [".", '"."'],
    ["..x.png", 'start with ".."'],
    ["\u0000x.png", "U+0000"],
    ["x\u001b[31m.png", "U+001B"],
    ["gpj\u202e.exe", "U+202E"],
    ["", "no name"],
    ["   ", "no name"],
  ])("refuses %j with a readable reason", (raw, fact) => {
    const error = refusal(raw);
    expect(error.code).toBe("bad_request:upload");
    expect(error.status).toBe(400);
    expect(error.field).toBe("file");
    expect(error.message).toContain(fact);
  });

  it("refuses a 300-character name and says how long it is", () => {
    const error = refusal(`${"a".repeat(296)}.png`);
    expect(error.code).toBe("bad_request:upload");
    expect(error.message).toContain("300 characters");
    expect(error.message).toContain("200");
  });

  it("counts characters, not UTF-16 units", () => {
    const emoji = "😀".repeat(196) + ".png"; // 200 code points, 396 UTF-16 units
    expect(cleanUploadName(emoji)).toBe(emoji);
  });
});

describe("uniqueName", () => {
  it("returns the name when it is free", () => {
    expect(uniqueName("a.png", new Set(["b.png"]))).toBe("a.png");
  });

  it("numbers collisions before the extension", () => {
    const taken = new Set(["a.png", "a-1.png"]);
    expect(uniqueName("a.png", taken)).toBe("a-2.png");
  });

  it("treats a leading-dot name as having no extension", () => {
    expect(uniqueName(".env", new Set([".env"]))).toBe(".env-1");
  });

  it("keeps the result within the length limit", () => {
    const long = `${"b".repeat(196)}.png`;
    const next = uniqueName(long, new Set([long]));
    expect([...next].length).toBeLessThanOrEqual(200);
    expect(next.endsWith("-1.png")).toBe(true);
    expect(cleanUploadName(next)).toBe(next);
  });
});
