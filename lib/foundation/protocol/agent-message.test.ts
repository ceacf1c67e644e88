import { describe, expect, it } from "vitest";
import { AGENT_MESSAGE_ROLES, AgentMessageSchema, StreamedMessageSchema } from "./agent-message";

describe("AgentMessage", () => {
  it("has exactly the eleven roles", () => {
    expect(AGENT_MESSAGE_ROLES).toEqual([
      "user",
      "assistant",
      "conversation",
      "planner",
      "coder",
      "browser",
      "observation",
      "final_observation",
      "error_observation",
      "interaction",
      "interaction_response",
    ]);
  });

  it("accepts media as optional file URLs", () => {
    expect(AgentMessageSchema.parse({ role: "user", content: "hi" })).toEqual({ role: "user", content: "hi" });
    expect(AgentMessageSchema.parse({ role: "user", content: "hi", media: ["/api/files/a"] }).media).toEqual([
      "/api/files/a",
    ]);
  });

  it("rejects an unknown role (planner_update is not an Argus role)", () => {
    expect(AgentMessageSchema.safeParse({ role: "planner_update", content: "" }).success).toBe(false);
  });
});

describe("StreamedMessage", () => {
  it("adds seq, runId, ts and the typed chat item", () => {
    const item = { type: "notice", speaker: "planner", text: "x" };
    const m = StreamedMessageSchema.parse({ role: "planner", content: "x", item, seq: 3, runId: null, ts: "2025-01-01T00:00:00Z" });
    expect(m).toEqual({ role: "planner", content: "x", item, seq: 3, runId: null, ts: "2025-01-01T00:00:00Z" });
    expect(StreamedMessageSchema.safeParse({ role: "planner", content: "x", seq: 3, runId: null, ts: "t" }).success).toBe(false);
  });

  it("requires a non-negative integer seq", () => {
    expect(StreamedMessageSchema.safeParse({ role: "user", content: "", item: { type: "user", text: "", media: [] }, seq: -1, runId: "r", ts: "t" }).success).toBe(false);
    expect(StreamedMessageSchema.safeParse({ role: "user", content: "", runId: "r", ts: "t" }).success).toBe(false);
  });
});
