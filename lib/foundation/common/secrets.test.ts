import { describe, expect, it } from "vitest";
import { browserIdentityMatches, hashBrowserIdentity, hashSecret, newSecret, secretMatches } from "./secrets";

describe("secrets", () => {
  it("matches a secret only against its own hash", () => {
    const a = newSecret();
    const b = newSecret();
    expect(a).not.toBe(b);
    expect(secretMatches(a, hashSecret(a))).toBe(true);
    expect(secretMatches(b, hashSecret(a))).toBe(false);
    expect(secretMatches(a, "00")).toBe(false);
  });

  it("hashes browser identities apart from other secrets, so a pre-existing cookie's binding never matches", () => {
    const value = newSecret();
    expect(hashBrowserIdentity(value)).not.toBe(hashSecret(value));
    expect(browserIdentityMatches(value, hashBrowserIdentity(value))).toBe(true);
    expect(browserIdentityMatches(value, hashSecret(value))).toBe(false);
  });
});
