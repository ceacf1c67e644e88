/**
 * How the browsing agent talks to its model, whatever the protocol: Chat
 * Completions with function tools (chat-engine.ts) or the Responses API's
 * computer tool (responses-engine.ts). The agent owns the loop, the budget and
 * the coordinate scaling; an engine only turns "what the last move led to"
 * into "the next move".
 */
import type { StepContext } from "@/agents/types";
import type { ComputerAction } from "@/lib/engines/computer/computer-actions";
import type { Usage } from "@/lib/engines/llm/usage";
import type { SafetyCheck } from "@/lib/foundation/protocol/browser-wire";

/** The screen as the model is shown it, downscaled: its pixels are the model's coordinates. */
export interface ScreenView {
  image: Uint8Array;
  mediaType: string;
  width: number;
  height: number;
  url: string;
  title: string;
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * One move the model chose. Coordinates (computer actions, save_image regions) are in the
 * pixels of the ScreenView it was shown; the agent scales them to the page's CSS pixels.
 */
export type BrowserMove =
  | { tool: "computer"; action: ComputerAction; checks: SafetyCheck[] }
  | { tool: "goto"; url: string }
  | { tool: "back" }
  | { tool: "save_image"; name: string; selector?: string; region?: Region }
  | { tool: "done"; answer: string }
  /** The model's call could not be read as a move: told to the model, nothing is done. */
  | { tool: "invalid"; error: string; summary: string };

export interface BrowserDecision {
  move: BrowserMove;
  thinking: string;
  usage: Usage;
}

/** What the last move led to, told to the model with the screen it left. */
export interface MoveOutcome {
  view: ScreenView;
  /** Plain words: what happened, what failed or was refused, downloads, saved images. */
  note: string;
  /** The safety checks the person confirmed for that move (Responses: acknowledged_safety_checks). */
  acknowledged: SafetyCheck[];
}

export interface BrowserEngine {
  /**
   * The next move. `outcome` is what the previous move led to; for the first call it is the
   * start page with note ''. Throws only on model errors (typed like every model call).
   */
  decide(ctx: StepContext, outcome: MoveOutcome): Promise<BrowserDecision>;
}

/** What an engine is made with: the person's task, the start URL and the screen size it is shown. */
export interface BrowserEngineInputs {
  task: string;
  startUrl: string;
  /** [width, height] of the ScreenView images, the model's coordinate space. */
  screen: readonly [number, number];
}
