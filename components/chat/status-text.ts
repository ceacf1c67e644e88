/**
 * What the status line says, as a pure function of the run state so the
 * wording is unit-tested rather than scattered through JSX.
 */
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";

/** 950 → "950", 1234 → "1.2k", 12_345 → "12k", 1_234_567 → "1.2M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0";
  if (n < 1000) return String(Math.round(n));
  const [value, unit] = n < 999_500 ? [n / 1000, "k"] : [n / 1_000_000, "M"];
  const digits = value < 10 ? 1 : 0;
  return `${Number(value.toFixed(digits))}${unit}`;
}


const ENDED: Partial<Record<RunStateWire["agentState"], string>> = {
  stopped: "Stopped",
  finished: "Done",
  rejected: "Could not complete the task",
  error: "Stopped by an error",
  interrupted: "Interrupted",
  paused: "Paused",
};

export type StatusTone = "idle" | "busy" | "waiting" | "ended" | "offline";

export interface StatusText {
  text: string;
  tone: StatusTone;
}

/** The status line's text: connection first (nothing else is trustworthy offline), then the run. */
export function statusText(state: RunStateWire | null, connected: boolean): StatusText {
  if (!connected) return { text: "Reconnecting…", tone: "offline" };
  if (!state) return { text: "Ready", tone: "idle" };
  const total = state.tokens.input + state.tokens.output;
  const tokens = total > 0 ? `${formatTokens(total)} tokens` : null;
  switch (state.agentState) {
    case "loading":
      return { text: "Starting…", tone: "busy" };
    case "running": {
      const card = agentCard(state.agent);
      const parts = [`${card?.label ?? "Argus"} is working`];
      // Turns count one agent's steps (the planner's), so they only mean something while it works.
      if (card?.countsTurns && state.turn > 0) parts.push(`turn ${state.turn} of ${state.maxTurns}`);
      if (tokens) parts.push(tokens);
      return { text: parts.join(" · "), tone: "busy" };
    }
    case "awaiting_user_input":
      return { text: "Waiting for your answer", tone: "waiting" };
    default: {
      // A notice comes only when the chat itself could not be told (a full disk).
      const label = state.notice ? `${ENDED[state.agentState] ?? state.agentState}: ${state.notice}` : (ENDED[state.agentState] ?? state.agentState);
      return { text: tokens ? `${label} · ${tokens}` : label, tone: "ended" };
    }
  }
}
