import { describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { chordKeys, playwrightKey } from "./keys";

describe("playwrightKey", () => {
  it.each([
    ["CTRL", "Control"],
    ["ctrl", "Control"],
    ["CMD", "Meta"],
    ["ALT", "Alt"],
    ["OPTION", "Alt"],
    ["SHIFT", "Shift"],
    ["ENTER", "Enter"],
    ["Return", "Enter"],
    ["ESC", "Escape"],
    ["ARROWLEFT", "ArrowLeft"],
    ["down", "ArrowDown"],
    ["PAGEDOWN", "PageDown"],
    ["SPACE", "Space"],
    ["F5", "F5"],
    ["a", "a"],
    ["A", "A"],
    ["/", "/"],
    ["+", "+"],
    ["é", "é"],
  ])("%s → %s", (cua, key) => expect(playwrightKey(cua)).toBe(key));

  it("knows no invented names", () => {
    for (const unknown of ["HYPER", "F13", "ab", "", "CTRL A"]) expect(playwrightKey(unknown), unknown).toBeNull();
  });
});

describe("chordKeys", () => {
  it("keeps the pressing order and reads CTRL+A written as one string", () => {
    expect(chordKeys(["CTRL", "SHIFT", "t"])).toEqual(["Control", "Shift", "t"]);
    expect(chordKeys(["ctrl+a"])).toEqual(["Control", "a"]);
    expect(chordKeys(["+"])).toEqual(["+"]);
  });

  it("refuses unknown keys by name, all of them", () => {
    const error = (() => {
      try {
        chordKeys(["CTRL", "HYPER", "SUPERDUPER"]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ArgusError);
    expect(error).toMatchObject({ code: "bad_request:browser", field: "keys" });
    expect((error as Error).message).toMatch(/^"HYPER", "SUPERDUPER" are not keys the browser knows; nothing was pressed\./);
  });

  it("refuses an empty chord and an absurd one", () => {
    expect(() => chordKeys([])).toThrow(/at least one key/);
    expect(() => chordKeys(Array(9).fill("a"))).toThrow(/9 keys is too many/);
  });
});
