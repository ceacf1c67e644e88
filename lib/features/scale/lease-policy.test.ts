import { describe, expect, it } from "vitest";
import type { RunLease } from "@/lib/engines/db/run-leases";
import { isLeaseExpired, leaseTimings, routeRunCommand, runsWithoutLease, sweepPlan, takeOverDeferMs, worstDetectionMs } from "./lease-policy";

const lease = (owner: string, expiresAt: number, sessionId = "s1"): RunLease => ({ sessionId, runId: `r-${sessionId}`, owner, expiresAt, epoch: 1 });

describe("lease timings", () => {
  it("renews several times per lease and notices a dead owner within 15 s at the default 10 s lease", () => {
    const t = leaseTimings(10_000);
    expect(t.renewEveryMs * 3).toBeLessThanOrEqual(10_000);
    expect(worstDetectionMs(10_000)).toBeLessThanOrEqual(15_000);
  });
  it("never asks for timers faster than 250 ms", () => {
    expect(leaseTimings(100)).toEqual({ renewEveryMs: 250, sweepEveryMs: 250 });
  });
});

describe("isLeaseExpired", () => {
  it("is expired at and after its expiry", () => {
    expect(isLeaseExpired({ expiresAt: 100 }, 99)).toBe(false);
    expect(isLeaseExpired({ expiresAt: 100 }, 100)).toBe(true);
  });
});

describe("routeRunCommand", () => {
  it("handles a session nobody holds, or that this instance holds, locally", () => {
    expect(routeRunCommand(null, "a", 0)).toEqual({ kind: "local" });
    expect(routeRunCommand(lease("a", 5), "a", 10)).toEqual({ kind: "local" });
  });
  it("sends a command for another instance's live run to that owner", () => {
    expect(routeRunCommand(lease("b", 50), "a", 10)).toEqual({ kind: "remote", owner: "b" });
  });
  it("takes over a session whose owner's lease ran out", () => {
    const l = lease("b", 10);
    expect(routeRunCommand(l, "a", 10)).toEqual({ kind: "take_over", lease: l });
  });
  it("without kernels here, leaves a dead owner's session to the others as long as its sweeper would", () => {
    const l = lease("b", 1_000);
    const defer = takeOverDeferMs(10_000);
    expect(routeRunCommand(l, "a", 1_000 + defer - 1, defer)).toEqual({ kind: "left_to_others", lease: l });
    expect(routeRunCommand(l, "a", 1_000 + defer, defer)).toEqual({ kind: "take_over", lease: l });
    // A live owner is still asked, whatever this instance can run.
    expect(routeRunCommand(lease("b", 50_000), "a", 1_000, defer)).toEqual({ kind: "remote", owner: "b" });
  });
});

describe("sweepPlan", () => {
  it("takes other instances' expired leases only", () => {
    const mine = lease("a", 1, "s1");
    const deadOther = lease("b", 1, "s2");
    const liveOther = lease("b", 100, "s3");
    expect(sweepPlan([mine, deadOther, liveOther], "a", 50)).toEqual({ take: [deadOther], leave: [] });
  });
  it("leaves a dead owner's runs to the others for a while when this instance cannot run kernels, then takes them", () => {
    const deadOther = lease("b", 1_000, "s2");
    const liveOther = lease("b", 50_000, "s3");
    const defer = takeOverDeferMs(10_000);
    expect(defer).toBe(20_000);
    expect(sweepPlan([deadOther, liveOther], "a", 1_000 + defer - 1, defer)).toEqual({ take: [], leave: [deadOther] });
    expect(sweepPlan([deadOther, liveOther], "a", 1_000 + defer, defer)).toEqual({ take: [deadOther], leave: [] });
  });
});

describe("runsWithoutLease", () => {
  it("names active runs whose lease this instance lost", () => {
    expect(runsWithoutLease(["s1", "s2"], ["s2"])).toEqual(["s1"]);
    expect(runsWithoutLease([], [])).toEqual([]);
  });
});
