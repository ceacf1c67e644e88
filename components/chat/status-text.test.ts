import { describe, expect, it } from "vitest";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { formatTokens, statusText } from "./status-text";

const state = (over: Partial<RunStateWire>): RunStateWire => ({
  runId: "r1",
  agentState: "running",
  agent: "planner",
  turn: 2,
  maxTurns: 10,
  tokens: { input: 1000, output: 200 },
  ...over,
});

describe("formatTokens", () => {
  it("abbreviates", () => {
    expect([0, 950, 1000, 1234, 12_345, 999_499, 999_999, 1_234_567].map(formatTokens)).toEqual(["0", "950", "1k", "1.2k", "12k", "999k", "1M", "1.2M"]);
  });
});

describe("statusText", () => {
  it("describes a working planner with turn and tokens", () => {
    expect(statusText(state({}), true)).toEqual({ text: "Planner is working · turn 2 of 10 · 1.2k tokens", tone: "busy" });
  });

  it("carries the notice of a run whose ending the chat could not record yet", () => {
    const ended = statusText(state({ agentState: "error", notice: "The server's disk filled up during this run." }), true);
    expect(ended.tone).toBe("ended");
    expect(ended.text).toMatch(/^Stopped by an error: The server's disk filled up during this run\./);
  });

  it("leaves out turns for other agents and zero tokens", () => {
    expect(statusText(state({ agent: "coder", tokens: { input: 0, output: 0 } }), true).text).toBe("Coder is working");
    expect(statusText(state({ agent: "conversation", turn: 0 }), true).text).toBe("Argus is working · 1.2k tokens");
  });

  it("asks for an answer and reports the end of a run", () => {
    expect(statusText(state({ agentState: "awaiting_user_input" }), true).text).toBe("Waiting for your answer");
    expect(statusText(state({ agentState: "stopped", tokens: { input: 0, output: 0 } }), true).text).toBe("Stopped");
    expect(statusText(state({ agentState: "finished" }), true).text).toBe("Done · 1.2k tokens");
  });

  it("puts the connection first", () => {
    expect(statusText(state({}), false)).toEqual({ text: "Reconnecting…", tone: "offline" });
    expect(statusText(null, true).text).toBe("Ready");
  });
});
