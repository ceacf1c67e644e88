import { describe, expect, it } from "vitest";
import { parseProbe } from "./kernel-limits";

describe("parseProbe", () => {
  it("reads the kind and the reason", () => {
    expect(parseProbe("cgroup-v1\n")).toEqual({ kind: "cgroup-v1", reason: "" });
    expect(parseProbe("rlimit\ncgroup-v1: Permission denied\n")).toEqual({ kind: "rlimit", reason: "cgroup-v1: Permission denied" });
  });

  it("takes anything else as rlimits only", () => {
    expect(parseProbe("").kind).toBe("rlimit");
    expect(parseProbe("cgroup-v3\n").kind).toBe("rlimit");
  });
});
