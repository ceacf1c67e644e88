import { describe, expect, it } from "vitest";
import { ReplayGuard, seal, unseal } from "./command-seal";

const SECRET = "k".repeat(32);

describe("sealed run commands", () => {
  it("opens a message sealed with the same secret for the same channel", () => {
    expect(unseal(SECRET, "argus:run-commands:a", seal(SECRET, "argus:run-commands:a", '{"x":1}'))).toEqual({ ok: true, body: '{"x":1}' });
  });

  it("refuses an unsigned message, another secret's, another channel's, and an altered body", () => {
    const sealed = seal(SECRET, "argus:run-commands:a", '{"x":1}');
    expect(unseal(SECRET, "argus:run-commands:a", '{"id":"1","command":{"kind":"post"}}')).toEqual({ ok: false, reason: "unsigned" });
    expect(unseal(SECRET, "argus:run-commands:a", "{nope")).toEqual({ ok: false, reason: "not JSON" });
    expect(unseal("o".repeat(32), "argus:run-commands:a", sealed)).toEqual({ ok: false, reason: "bad signature" });
    expect(unseal(SECRET, "argus:run-commands:b", sealed)).toEqual({ ok: false, reason: "bad signature" });
    const altered = { ...JSON.parse(sealed), body: '{"x":2}' };
    expect(unseal(SECRET, "argus:run-commands:a", JSON.stringify(altered))).toEqual({ ok: false, reason: "bad signature" });
  });
});

describe("ReplayGuard", () => {
  it("admits an id once until it expires, and refuses the expired and the far-future", () => {
    const guard = new ReplayGuard(60_000);
    expect(guard.admit("a", 1_000 + 5_000, 1_000)).toBe("fresh");
    expect(guard.admit("a", 1_000 + 5_000, 2_000)).toBe("replayed");
    expect(guard.admit("b", 999, 1_000)).toBe("expired");
    expect(guard.admit("c", 1_000 + 60_001, 1_000)).toBe("too_far_ahead");
    // Past its expiry the id is forgotten (the bus drops an expired command anyway).
    expect(guard.admit("d", 7_000 + 5_000, 7_000)).toBe("fresh");
    expect(guard.size).toBe(1);
  });
});
