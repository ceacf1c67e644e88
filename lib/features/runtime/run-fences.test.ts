import { describe, expect, it } from "vitest";
import { RunFences } from "./run-fences";

const fence = { sessionId: "s1", runId: "r1", owner: "a", epoch: 3 };

describe("RunFences", () => {
  it("names a run's lease only for its own session, until the run is dropped", () => {
    const fences = new RunFences();
    expect(fences.of("s1", "r1")).toBeNull();
    fences.hold(fence);
    expect(fences.of("s1", "r1")).toBe(fence);
    expect(fences.of("s2", "r1")).toBeNull();
    expect(fences.of("s1", "r2")).toBeNull();
    fences.drop("r1");
    expect(fences.of("s1", "r1")).toBeNull();
  });

  it("tells its listeners of a refusal under the fence held now, not under one already replaced or dropped", () => {
    const fences = new RunFences();
    const heard: unknown[] = [];
    const stop = fences.onRefused((f) => heard.push(f));
    fences.refused(fence); // never held
    fences.hold(fence);
    fences.refused({ ...fence }); // an older copy of the same run's fence
    fences.refused(fence);
    expect(heard).toEqual([fence]);
    fences.drop("r1");
    fences.refused(fence);
    stop();
    fences.hold(fence);
    fences.refused(fence);
    expect(heard).toEqual([fence]);
  });
});
