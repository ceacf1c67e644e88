import { describe, expect, it } from "vitest";
import { newNonce, pagePolicy } from "./page-policy";

describe("pagePolicy", () => {
  it("lets only nonce'd scripts run, forbids framing, and allows eval only in development", () => {
    const policy = pagePolicy("abc", { dev: false });
    const script = policy.split("; ").find((d) => d.startsWith("script-src "))!;
    expect(script).toBe("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(policy).not.toMatch(/unsafe-eval/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(pagePolicy("abc", { dev: true })).toMatch(/script-src [^;]*'unsafe-eval'/);
  });

  it("makes a different nonce every time", () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(newNonce()).not.toBe(a);
  });
});
