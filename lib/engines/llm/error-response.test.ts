import { describe, expect, it } from "vitest";
import { providerMessage, retryAfterFromHeaders } from "./error-response";

const openAIBody = (message: string, code: string | null = null) =>
  JSON.stringify({ error: { message, type: "invalid_request_error", code } });

describe("retryAfterFromHeaders", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterFromHeaders({ "retry-after": "3" }, now)).toBe(3000);
    expect(retryAfterFromHeaders({ "Retry-After": "0.5" }, now)).toBe(500);
    expect(retryAfterFromHeaders({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250);
    expect(retryAfterFromHeaders({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(retryAfterFromHeaders({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }, now)).toBe(0);
  });
  it("ignores what it cannot read", () => {
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
    expect(retryAfterFromHeaders({})).toBeUndefined();
    expect(retryAfterFromHeaders({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterFromHeaders({ "retry-after": "-1" })).toBeUndefined();
  });
});

describe("providerMessage", () => {
  it("finds the message in OpenAI-style and plain bodies", () => {
    expect(providerMessage(openAIBody("nope"))).toBe("nope");
    expect(providerMessage(JSON.stringify({ error: "plain" }))).toBe("plain");
    expect(providerMessage("Bad Gateway")).toBe("Bad Gateway");
    expect(providerMessage("")).toBeUndefined();
    expect(providerMessage("x".repeat(400))?.length).toBe(301);
  });
});
