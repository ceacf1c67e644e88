import { describe, expect, it } from "vitest";
import { isCardShortcut } from "./card-shortcut";

const press = (over: Partial<Parameters<typeof isCardShortcut>[0]>) => ({ code: "KeyA", altKey: true, shiftKey: true, ctrlKey: false, metaKey: false, ...over });

describe("the shortcut to the pending card", () => {
  it("is Alt+Shift+A, by physical key", () => {
    expect(isCardShortcut(press({}))).toBe(true);
    // A layout that types another letter on that key still counts: the check reads `code`.
    expect(isCardShortcut(press({ code: "KeyA" }))).toBe(true);
  });

  it("is nothing else: plain typing, one modifier short, or with Ctrl/Meta", () => {
    expect(isCardShortcut(press({ altKey: false, shiftKey: false }))).toBe(false);
    expect(isCardShortcut(press({ shiftKey: false }))).toBe(false);
    expect(isCardShortcut(press({ altKey: false }))).toBe(false);
    expect(isCardShortcut(press({ ctrlKey: true }))).toBe(false);
    expect(isCardShortcut(press({ metaKey: true }))).toBe(false);
    expect(isCardShortcut(press({ code: "KeyS" }))).toBe(false);
  });
});
