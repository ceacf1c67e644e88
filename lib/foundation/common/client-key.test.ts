import { describe, expect, it } from "vitest";
import { clientKey } from "./client-key";

describe("clientKey", () => {
  it("keeps IPv4 addresses and unwraps IPv4-mapped IPv6", () => {
    expect(clientKey("127.0.0.1")).toBe("127.0.0.1");
    expect(clientKey("::ffff:10.1.2.3")).toBe("10.1.2.3");
  });

  it("groups IPv6 addresses by their /64, however they are written", () => {
    expect(clientKey("2001:db8:0:1::5")).toBe("2001:db8:0:1::/64");
    expect(clientKey("2001:0db8:0000:0001:ffff:0:0:9")).toBe("2001:db8:0:1::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("passes anything else through", () => {
    expect(clientKey("unknown")).toBe("unknown");
  });
});
