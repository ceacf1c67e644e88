import { describe, expect, it } from "vitest";
import { ModelError } from "./errors";
import { healthOf, RoleHealth } from "./role-health";

const clean = { ok: true, retried: false, repaired: false, textProtocol: false };

describe("RoleHealth", () => {
  it("unconfigured roles are down; configured and not yet called are ok", () => {
    const health = new RoleHealth((role) => role !== "judge");
    expect(health.snapshot()).toEqual({ conversation: "ok", planner: "ok", coder: "ok", vqa: "ok", judge: "down", browser: "ok" });
  });

  it("leaves out the optional browser role when it has no model, and lists a required role as down", () => {
    const health = new RoleHealth((role) => role !== "browser" && role !== "vqa");
    expect(health.snapshot()).toEqual({ conversation: "ok", planner: "ok", coder: "ok", vqa: "down", judge: "ok" });
  });

  it("the last call decides: retries, repairs and the text protocol degrade; endpoint failures are down", () => {
    const health = new RoleHealth(() => true);
    health.record("planner", { ...clean, repaired: true });
    health.record("coder", { ...clean, ok: false, error: new ModelError("unreachable", "x") });
    health.record("vqa", { ...clean, ok: false, error: new ModelError("rate_limited", "x") });
    health.record("conversation", { ...clean, textProtocol: true });
    expect(health.snapshot()).toMatchObject({ planner: "degraded", coder: "down", vqa: "degraded", conversation: "degraded", judge: "ok" });
    health.record("coder", clean);
    expect(health.snapshot().coder).toBe("ok");
  });

  it("a cancel is not recorded", () => {
    const health = new RoleHealth(() => true);
    health.record("planner", { ...clean, ok: false, error: new ModelError("bad_output", "x") });
    health.record("planner", { ...clean, ok: false, error: new ModelError("cancelled", "x") });
    expect(health.snapshot().planner).toBe("down");
    expect(healthOf({ ...clean, retried: true })).toBe("degraded");
  });

  it("a model whose replies needed a habit undone stays degraded, with the reason, after clean calls", () => {
    const health = new RoleHealth(() => true);
    expect(health.notes()).toEqual({});
    health.record("planner", { ...clean, habits: ["fenced_code"] });
    health.record("planner", clean);
    health.record("planner", { ...clean, habits: ["thinking_in_text", "fenced_code"] });
    health.record("planner", clean);
    expect(health.snapshot()).toMatchObject({ planner: "degraded", coder: "ok" });
    expect(health.notes()).toEqual({ planner: "its replies needed fixing: code wrapped in a markdown fence; thinking written in the reply's text" });
    // Down is still down.
    health.record("planner", { ...clean, ok: false, error: new ModelError("unreachable", "x") });
    expect(health.snapshot().planner).toBe("down");
    expect(healthOf({ ...clean, habits: ["tool_alias"] })).toBe("degraded");
  });
});
