import { describe, expect, it } from "vitest";
import { formatCount, lengthNote, MAX_MESSAGE_CHARS, tooLongMessage } from "./message-limit";

describe("message limit", () => {
  it("groups thousands with a space", () => {
    expect(formatCount(20_000)).toBe("20 000");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1_234_567)).toBe("1 234 567");
  });

  it("says nothing far from the limit, counts near it, and refuses past it in words", () => {
    expect(lengthNote(100)).toBeNull();
    expect(lengthNote(MAX_MESSAGE_CHARS * 0.9 - 1)).toBeNull();
    expect(lengthNote(19_000)).toEqual({ counter: "19 000 / 20 000", over: false, reason: null });
    expect(lengthNote(20_000)?.over).toBe(false);
    const over = lengthNote(20_250)!;
    expect(over.over).toBe(true);
    expect(over.reason).toBe("250 characters over the limit: shorten the message, or send it in parts.");
  });

  it("the server's refusal is a sentence, not a validator's", () => {
    expect(tooLongMessage(25_000)).toBe("A message can be at most 20 000 characters. This one has 25 000. Shorten it, or send it in parts.");
    expect(tooLongMessage(null)).not.toMatch(/expected|<=|content:/);
  });
});
