import { describe, expect, it } from "vitest";
import { curlLine } from "./function-curl";

describe("curlLine", () => {
  it("posts an image to the run endpoint with a token placeholder", () => {
    expect(curlLine("http://localhost:3000", "s1", "count_coins")).toBe(
      `curl -X POST -H "Authorization: Bearer $ARGUS_TOKEN" -F "file=@image.png" 'http://localhost:3000/api/sessions/s1/functions/count_coins/run'`,
    );
  });

  it("pins a version when asked", () => {
    expect(curlLine("https://argus.example", "s1", "f", 3)).toMatch(/\/functions\/f\/run\?version=3'$/);
  });

  it("carries a function token once the person has made one", () => {
    expect(curlLine("http://h", "s1", "f", null, "abc_DEF-123")).toContain(`-H "Authorization: Bearer abc_DEF-123"`);
  });
});
