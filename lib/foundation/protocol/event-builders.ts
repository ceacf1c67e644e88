/**
 * Typed builders for the events Argus itself writes, so producers neither
 * hand-build (and cast) event objects nor repeat the same state and error
 * events in several places. Each returns exactly the input type of its kind.
 */
import { BROWSING_AGENT } from "./agent-cards";
import type { SafetyCheck } from "./browser-wire";
import type { CellOutput } from "./cell-output";
import { cellOutputText } from "./cell-output-text";
import type { AgentName, AgentState, ArgusEventInput } from "./events";
import { choiceText, type InteractionChoice } from "./interaction-choice";
import type { RedoMark } from "./redo";
import type { CellImageLabel } from "./observation-extras";

export type ObservationInput<K extends string> = Extract<ArgusEventInput, { observation: K }>;
export type ActionInput<K extends string> = Extract<ArgusEventInput, { action: K }>;

/** Where an event belongs: its run, the event it answers, and who it is for. */
export interface EventPlace {
  runId?: string;
  cause?: number;
  agent?: AgentName;
}

/**
 * The reason a run's final state carries when the person stopped it. The chat
 * shows that state change as its "you stopped the run" notice (projection.ts),
 * so runs stopped before the notice existed show it too.
 */
export const STOPPED_BY_PERSON_REASON = "Stopped by you.";

/** The run's agent state changed (running, awaiting_user_input, finished…), with why. */
export function stateChanged(agentState: AgentState, reason = "", place: EventPlace = {}): ObservationInput<"agent_state_changed"> {
  return { source: "environment", agent: "system", ...place, observation: "agent_state_changed", content: "", extras: { agent_state: agentState, reason } };
}

/** Something went wrong that the person should read about; `errorId` says what kind of thing. */
export function errorNote(content: string, errorId: string, place: EventPlace = {}): ObservationInput<"error"> {
  return { source: "environment", agent: "system", ...place, observation: "error", content, extras: { error_id: errorId } };
}

/** A redo mark (redo.ts): the chat shows `text` where a run continued, a message was answered again or edited. */
export function redoMark(mark: RedoMark, text: string, place: EventPlace = {}): ObservationInput<"null"> {
  return { source: "user", agent: "user", ...place, observation: "null", content: text, extras: { redo: mark } };
}

/** The person's message (or answer), with the URLs of the files it carries. */
/** The person's message; an answer to a card with fields carries them as `choice` (its text form is the content). */
export function personMessage(content: string, imageUrls: string[], place: EventPlace = {}, choice?: InteractionChoice): ActionInput<"message"> {
  const args = { content: choice ? choiceText(choice) : content, ...(imageUrls.length ? { image_urls: imageUrls } : {}), ...(choice ? { choice } : {}) };
  return { source: "user", agent: "user", ...place, action: "message", args };
}

/** A question for the person (or a tool review) from inside a run. */
export function question(
  agent: AgentName,
  ask: { kind: "question" | "tool_review" | "safety"; prompt: string; options?: string[]; payload?: unknown },
  place: EventPlace = {},
): ActionInput<"interaction"> {
  return {
    source: "agent",
    ...place,
    agent,
    action: "interaction",
    args: { kind: ask.kind, prompt: ask.prompt, options: ask.options ?? [], payload: (ask.payload ?? null) as never, thought: "" },
  };
}

/**
 * What a cell printed and showed, typed, with its text form as `content`. `failed` is set when the
 * cell raised, `stopped` when the person stopped it mid-run.
 */
export function cellObservation(
  agent: AgentName,
  cell: { code: string; output: CellOutput; imageUrls: string[]; imageLabels?: CellImageLabel[]; failed: boolean; stopped?: boolean },
  place: EventPlace = {},
): ObservationInput<"run_ipython"> {
  return {
    source: "environment",
    ...place,
    agent,
    observation: "run_ipython",
    content: cellOutputText(cell.output),
    extras: {
      code: cell.code,
      image_urls: cell.imageUrls.length ? cell.imageUrls : null,
      ...(cell.imageLabels?.length ? { image_labels: cell.imageLabels } : {}),
      failed: cell.failed,
      ...(cell.stopped ? { stopped: true } : {}),
      output: cell.output,
    },
  };
}

/** A delegate finished: its outputs, handed to the agent that delegated. */
export function delegateResult(agent: AgentName, content: string, outputs: Record<string, unknown>, place: EventPlace = {}): ObservationInput<"delegate"> {
  return { source: "environment", ...place, agent, observation: "delegate", content, extras: { outputs: outputs as never } };
}

/** An image the browsing agent saved from a page, now one of the session's uploads. */
export interface SavedImage {
  id: string;
  name: string;
  url: string;
}

/**
 * What one browsing step led to: the screen it left (a stored screenshot), where the browser
 * is, and in `content` the words the model reads (what happened, what failed or was refused).
 * The OpenHands fields are kept; Argus's own (screenshot, pointer, viewport, tabs, saved) ride
 * beside them in the open-ended extras.
 */
export function browseObservation(
  step: {
    text: string;
    url: string;
    title: string;
    action: string;
    error: string;
    screenshotUrl: string | null;
    pointer: { x: number; y: number } | null;
    viewport: [number, number];
    tabs: number;
    saved: SavedImage[];
    /** The model's own checks the person confirmed for this step (Responses: acknowledged_safety_checks). */
    acknowledged: SafetyCheck[];
  },
  place: EventPlace = {},
): ObservationInput<"browse"> {
  return {
    source: "environment",
    agent: BROWSING_AGENT,
    ...place,
    observation: "browse",
    content: step.text,
    extras: {
      url: step.url,
      trigger_by_action: "browse_interactive",
      last_browser_action: step.action,
      last_browser_action_error: step.error,
      error: step.error !== "",
      image_urls: step.screenshotUrl ? [step.screenshotUrl] : [],
      title: step.title,
      pointer: step.pointer,
      viewport: step.viewport,
      tabs: step.tabs,
      saved: step.saved,
      acknowledged: step.acknowledged,
    } as never,
  };
}
