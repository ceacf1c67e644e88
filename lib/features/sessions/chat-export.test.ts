import { describe, expect, it } from "vitest";
import { exportFileName } from "./chat-export";

describe("exportFileName", () => {
  it("is named after the title, without stray dots or dashes", () => {
    expect(exportFileName("Count the coins, please.")).toBe("Count-the-coins-please.zip");
    expect(exportFileName("hello there, Argus")).toBe("hello-there-Argus.zip");
    expect(exportFileName("../../etc")).toBe("etc.zip");
    expect(exportFileName(null)).toBe("argus-chat.zip");
    expect(exportFileName("???")).toBe("argus-chat.zip");
  });
});
