import type { ReplyDraft } from "@/lib/engines/llm/draft";
import type { ModelClient } from "@/lib/engines/llm/models";
import type { Usage } from "@/lib/engines/llm/usage";
import type { AgentName } from "@/lib/foundation/protocol/event-base";
import type { ArgusEvent, JsonObject } from "@/lib/foundation/protocol/events";

/**
 * What an agent decides in one step (OpenHands' `agent.step(state) → action`).
 * The controller persists it as an event and carries it out.
 */
type AgentAction =
  | { action: "message"; args: { content: string } }
  | { action: "run_ipython"; args: { code: string; thought: string } }
  | { action: "browse"; args: { url: string; thought: string } }
  | { action: "browse_interactive"; args: { browser_actions: string; thought: string } }
  | { action: "interaction"; args: { kind: "question"; prompt: string; options: string[]; thought: string } }
  | { action: "delegate"; args: { agent: AgentName; inputs: JsonObject; thought: string } }
  | { action: "finish"; args: { outputs: JsonObject; final_thought: string } }
  | { action: "reject"; args: { outputs: JsonObject; thought: string } };

export interface StepResult {
  action: AgentAction;
  /** Tokens this step spent (one or more model calls), for the run's metrics. */
  usage: Usage;
}

/** The model calls an agent's step makes: the real client, or one replaying recorded replies (lib/features/runtime/model-replies.ts). */
export type AgentModel = Pick<ModelClient, "callTool" | "responses">;

export interface StepContext {
  sessionId: string;
  runId: string;
  signal: AbortSignal;
  model: AgentModel;
  /**
   * True while the agent is stepped again from the log to rebuild its memory on another
   * instance (lib/features/runtime/run-rebuild.ts): its action is not carried out, so a step must not
   * start anything outside itself (a batch) then.
   */
  replaying?: boolean;
  /** Give to every model call: receives the reply as it is written (the chat's live draft). */
  onDraft?: (draft: ReplyDraft) => void;
}

/** A picture the agents can be shown again by file id (an upload or one a cell made). */
export interface ImageRef {
  fileId: string;
  label: string;
  width: number;
  height: number;
}

/** Loads an image for a model, downscaled to `maxEdge`. */
export type PrepareImage = (ref: ImageRef, maxEdge: number) => Promise<{ type: "image"; image: Uint8Array; mediaType: string }>;

/** What comes with an observation besides its event: the pictures its cell made. */
export interface ObservationExtras {
  images: ImageRef[];
  /** File ids of the images the cell asked to look at (view_image). */
  viewed: string[];
}

export interface Agent {
  readonly name: AgentName;
  step(ctx: StepContext): Promise<StepResult>;
  /** Receives the observation that answers this agent's last action. */
  observe(event: ArgusEvent, extras?: ObservationExtras): void | Promise<void>;
  /** What the delegating agent is told when this one finishes with `outputs`. */
  describeOutputs?(outputs: Record<string, unknown>): string;
}

/**
 * Makes the agent a delegation names (OpenHands' `Agent.get_cls`): the
 * controller knows agents only through this and the Agent interface.
 */
export type AgentFactory = (name: AgentName, inputs: Record<string, unknown>) => Promise<Agent>;

/** A run's agents: the one it starts with, and how to make the ones it delegates to. */
export interface RunAgents {
  root: Agent;
  create: AgentFactory;
}

export { ZERO_USAGE as NO_USAGE, sumUsage as addUsage } from "@/lib/engines/llm/usage";
