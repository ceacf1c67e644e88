import { describe, expect, it } from "vitest";
import { canonicalAddress } from "../../foundation/net/ip-address";
import { NetworkGuard } from "./network-guard";
import { parseAllowList } from "../../foundation/net/url-policy";

describe("NetworkGuard and this machine's own addresses", () => {
  it("refuses an interface's address that no range table refuses, and sees a new one at once", async () => {
    const own = new Set<string>();
    const guard = new NetworkGuard({ block: [], allow: [] }, undefined, () => own);
    expect(await guard.judgeConnection("8.8.4.4", 80)).toEqual({ kind: "allow", addresses: ["8.8.4.4"] });
    own.add(canonicalAddress("8.8.4.4")!);
    expect(await guard.judgeConnection("8.8.4.4", 80)).toMatchObject({
      kind: "refuse",
      reason: "address",
      message: "8.8.4.4 is one of this machine's own addresses, which the browser may not reach; list 8.8.4.4:80 in ARGUS_BROWSER_ALLOW to let the browser reach it.",
    });
    expect(await guard.judgeUrl("http://[::ffff:8.8.4.4]:8080/", { topLevel: true })).toMatchObject({ kind: "refuse", reason: "address" });
  });

  it("ARGUS_BROWSER_ALLOW still lifts the rule for a listed host:port", async () => {
    const guard = new NetworkGuard({ block: [], allow: parseAllowList("8.8.4.4:80") }, undefined, () => new Set([canonicalAddress("8.8.4.4")!]));
    expect(await guard.judgeConnection("8.8.4.4", 80)).toEqual({ kind: "allow", addresses: ["8.8.4.4"] });
  });
});
