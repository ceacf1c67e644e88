import { describe, expect, it } from "vitest";
import { routeBatchCancel, whyNotRenewed } from "./cancel-route";

const running = (owner: string | null, leaseExpiresAt: number | null) => ({ status: "running" as const, owner, leaseExpiresAt });

describe("routeBatchCancel", () => {
  it("sends the cancel to a live owner on another instance", () => {
    expect(routeBatchCancel(running("a", 5000), "b", 4000)).toEqual({ kind: "owner", owner: "a" });
  });

  it("settles here what is this instance's own, has ended, or is gone", () => {
    expect(routeBatchCancel(running("b", 5000), "b", 4000)).toEqual({ kind: "here" });
    expect(routeBatchCancel({ status: "done", owner: "a", leaseExpiresAt: 5000 }, "b", 4000)).toEqual({ kind: "here" });
    expect(routeBatchCancel({ status: "cancelled", owner: "a", leaseExpiresAt: 5000 }, "b", 4000)).toEqual({ kind: "here" });
    expect(routeBatchCancel(null, "b", 4000)).toEqual({ kind: "here" });
  });

  it("settles here a batch nobody leases: no owner, or no lease", () => {
    expect(routeBatchCancel(running(null, 5000), "b", 4000)).toEqual({ kind: "here" });
    expect(routeBatchCancel(running("a", null), "b", 4000)).toEqual({ kind: "here" });
  });

  it("an owner whose lease ran out is gone: nobody to ask, and its running items are settled here", () => {
    expect(routeBatchCancel(running("a", 4000), "b", 4000)).toEqual({ kind: "owner_gone" });
    expect(routeBatchCancel(running("a", 3999), "b", 4000)).toEqual({ kind: "owner_gone" });
    // Not when the batch has ended, or the lapsed lease is this instance's own (it is running here or about to resume).
    expect(routeBatchCancel({ status: "cancelled", owner: "a", leaseExpiresAt: 3999 }, "b", 4000)).toEqual({ kind: "here" });
    expect(routeBatchCancel(running("b", 3999), "b", 4000)).toEqual({ kind: "here" });
  });
});

describe("whyNotRenewed", () => {
  it("a batch of its own that another instance settled as cancelled is a cancel to carry out", () => {
    expect(whyNotRenewed({ status: "cancelled", owner: "a", leaseExpiresAt: 5000 }, "a")).toBe("cancelled_elsewhere");
  });

  it("anything else is lost to this instance: taken over, ended, or deleted", () => {
    expect(whyNotRenewed(running("b", 5000), "a")).toBe("lost");
    expect(whyNotRenewed({ status: "cancelled", owner: "b", leaseExpiresAt: 5000 }, "a")).toBe("lost");
    expect(whyNotRenewed({ status: "done", owner: "a", leaseExpiresAt: 5000 }, "a")).toBe("lost");
    expect(whyNotRenewed(null, "a")).toBe("lost");
  });
});
