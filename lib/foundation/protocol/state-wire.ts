import type { RunState } from "@/lib/foundation/protocol/state";

/** The `state` socket event of DESIGN §6: just what the status line needs. */
export interface RunStateWire {
  runId: string;
  agentState: RunState["agentState"];
  agent: RunState["agent"];
  turn: number;
  maxTurns: number;
  tokens: { input: number; output: number };
  /** Why the run ended, when the chat could not be told yet (the disk is full). */
  notice?: string;
}

export function toStateWire(state: RunState): RunStateWire {
  return {
    runId: state.runId,
    agentState: state.agentState,
    agent: state.agent,
    turn: state.turn,
    maxTurns: state.maxTurns,
    tokens: { input: state.metrics.totals.inputTokens, output: state.metrics.totals.outputTokens },
  };
}
