import { describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import { asDatabaseError, isConnectionFailure } from "./unavailable";

describe("database unavailable", () => {
  it("recognises a server that is not there", () => {
    expect(isConnectionFailure(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error("x"), { code: "08006" }))).toBe(true);
    expect(isConnectionFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("leaves statement errors alone", () => {
    const syntax = Object.assign(new Error("syntax error"), { code: "42601" });
    expect(isConnectionFailure(syntax)).toBe(false);
    expect(asDatabaseError(syntax)).toBe(syntax);
    expect(isConnectionFailure("ECONNREFUSED")).toBe(false);
  });

  it("becomes a 503 with plain words", () => {
    const error = asDatabaseError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    expect(isArgusError(error) && error.status).toBe(503);
    expect(isArgusError(error) && error.message).toMatch(/database cannot be reached/);
  });
});
