import { describe, expect, it } from "vitest";
import { baseTitle, waitingTitle } from "./waiting-title";

describe("waitingTitle", () => {
  it("marks the tab while a question waits, and unmarks it after", () => {
    expect(waitingTitle("Argus", 1)).toBe("(1) Waiting for you · Argus");
    expect(waitingTitle("Argus", 0)).toBe("Argus");
    expect(baseTitle(waitingTitle("Argus", 1))).toBe("Argus");
    expect(baseTitle("Argus")).toBe("Argus");
  });
});
