import { describe, expect, it } from "vitest";
import { overQuota, withQuotaError } from "./workspace-quota";

const MB = 1024 * 1024;
const clean = { results: [], stdout: "ok\n", stderr: "", error: null };

describe("workspace quota", () => {
  it("is over past the limit or when the walk could not finish", () => {
    expect(overQuota({ bytes: 10 * MB, entries: 3, partial: false }, 10 * MB)).toBe(false);
    expect(overQuota({ bytes: 10 * MB + 1, entries: 3, partial: false }, 10 * MB)).toBe(true);
    expect(overQuota({ bytes: 0, entries: 200_000, partial: true }, 10 * MB)).toBe(true);
  });

  it("ends a clean cell with a readable error, and adds to a failed cell's stderr", () => {
    const usage = { bytes: 30 * MB, entries: 3, partial: false };
    const ended = withQuotaError(clean, usage, 20 * MB);
    expect(ended.stdout).toBe("ok\n");
    expect(ended.error).toMatchObject({ name: "WorkspaceFull" });
    expect(ended.error!.value).toMatch(/holds 30 MB, and its limit is 20 MB\. Delete files/);
    const failed = withQuotaError({ ...clean, stderr: "warn", error: { name: "ValueError", value: "x", traceback: "t" } }, usage, 20 * MB);
    expect(failed.error!.name).toBe("ValueError");
    expect(failed.stderr).toMatch(/^warn\nThe workspace is full/);
  });
});
