import type { ModelClient } from "@/lib/llm/models";
import type { Usage } from "@/lib/llm/usage";
import type { AgentName } from "@/lib/protocol/event-base";
import type { ArgusEvent } from "@/lib/protocol/events";

/** Tokens spent, in the model layer's own shape (one vocabulary for usage). */
type TokenUsage = Usage;

/**
 * What an agent decides in one step (OpenHands' `agent.step(state) → action`).
 * The controller persists it as an event and carries it out.
 */
type AgentAction =
  | { action: "message"; args: { content: string } }
  | { action: "run_ipython"; args: { code: string; thought: string } }
  | { action: "interaction"; args: { kind: "question"; prompt: string; options: string[]; thought: string } }
  | { action: "delegate"; args: { agent: AgentName; inputs: Record<string, unknown>; thought: string } }
  | { action: "finish"; args: { outputs: Record<string, unknown>; final_thought: string } }
  | { action: "reject"; args: { outputs: Record<string, unknown>; thought: string } };

export interface StepResult {
  action: AgentAction;
  /** Tokens this step spent (one or more model calls), for the run's metrics. */
  usage: TokenUsage;
}

export interface StepContext {
  sessionId: string;
  runId: string;
  signal: AbortSignal;
  model: ModelClient;
  /** Streams the model's text while it is being written (live display). */
  onText?: (text: string) => void;
}

export interface Agent {
  readonly name: AgentName;
  step(ctx: StepContext): Promise<StepResult>;
  /** Receives the observation that answers this agent's last action. */
  observe(event: ArgusEvent): void | Promise<void>;
}

export { ZERO_USAGE as NO_USAGE, sumUsage as addUsage } from "@/lib/llm/usage";
