import { describe, expect, it } from "vitest";
import { firstColumn, numberedPlaceholders } from "./engine";

describe("engine helpers", () => {
  it("numbers placeholders in order", () => {
    expect(numberedPlaceholders("SELECT * FROM t WHERE a = ? AND b IN (?, ?)")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)",
    );
    expect(numberedPlaceholders("SELECT 1")).toBe("SELECT 1");
  });

  it("reads the first column of a row", () => {
    expect(firstColumn<number>({ n: 3, m: 4 })).toBe(3);
    expect(firstColumn({})).toBeUndefined();
    expect(firstColumn(undefined)).toBeUndefined();
  });
});
