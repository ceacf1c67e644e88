import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { writeInSlices } from "./write-in-slices";

const scratch = tempDir("argus-slices-");
afterAll(scratch.cleanup);

describe("writeInSlices", () => {
  it("writes the whole string, a surrogate pair on a slice boundary included", async () => {
    const file = path.join(scratch.dir, "out.txt");
    const value = "ab🙂cd🙂e".repeat(7);
    for (const slice of [1, 2, 3, 4, 1000]) {
      await writeInSlices(file, value, slice);
      expect(readFileSync(file, "utf8"), `slice ${slice}`).toBe(value);
    }
  });
});
