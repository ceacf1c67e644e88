/**
 * ChatItem: what one chat entry is, typed. The server derives one from each event the chat shows
 * (lib/features/runtime/projection.ts) and sends it as `item` on every streamed message (socket `message`,
 * `sync`, `GET /api/sessions/:id`); the chat renders by `type`, one component per type. The
 * vision-agent-compatible text form (`role` + `content` with `<execute_python>`, `<plan>` … tags)
 * is written FROM these items by chat-text.ts, for the API clients and `update_callback`
 * subscribers that read it; nothing in Argus parses that text back.
 */
import { z } from "zod";
import { TaskItemSchema } from "./action-args";
import { agentCard, AGENT_KINDS } from "./agent-cards";
import { CellOutputSchema } from "./cell-output";
import { InteractionChoiceSchema } from "./interaction-choice";
import { RedoMarkSchema } from "./redo";
import { BrowserActionWireSchema, BrowserObservationWireSchema, SafetyPayloadSchema } from "./browser-wire";

const media = z.array(z.string());

/** Who speaks an agent's own words or notices (the AgentMessage role it maps to): an agent (agent-cards.ts) or a plain assistant. */
export const SpeakerSchema = z.enum(["assistant", ...AGENT_KINDS]);
export type Speaker = z.infer<typeof SpeakerSchema>;

/** The agents that run Python cells (their card's `cells` is set). */
export const CellAgentSchema = z.enum(AGENT_KINDS).refine((name) => agentCard(name)?.cells != null, "not an agent that runs cells");
export type CellAgent = z.infer<typeof CellAgentSchema>;

export const ChatItemSchema = z.discriminatedUnion("type", [
  /** The person's message, with their uploads as file URLs. */
  z.strictObject({ type: z.literal("user"), text: z.string(), media }),
  /**
   * The person's answer to a question, tool review or safety check (the message the interaction
   * caused). `choice`: the fields a card answered with (the tool review's pick); `text` is then its
   * text form, and only `choice` is read.
   */
  z.strictObject({ type: z.literal("answer"), text: z.string(), media, choice: InteractionChoiceSchema.optional() }),
  /** An agent's own words: the conversation agent's reply (Markdown), another agent's remark. */
  z.strictObject({ type: z.literal("agent_message"), speaker: SpeakerSchema, text: z.string(), media }),
  /** A one-line note of something an agent does that has no card of its own (a command, a file read). */
  z.strictObject({ type: z.literal("notice"), speaker: SpeakerSchema, text: z.string() }),
  /** A Python cell a planner or coder runs: its reasoning, then the code. */
  z.strictObject({ type: z.literal("cell"), agent: CellAgentSchema, thinking: z.string(), code: z.string() }),
  /**
   * What a cell answered, typed (cell-output.ts), with the pictures it showed. `stopped`: the
   * person stopped the run while the cell ran, so this is what it printed until then.
   */
  z.strictObject({ type: z.literal("cell_output"), output: CellOutputSchema, media, stopped: z.literal(true).optional() }),
  /** What a command or file operation answered, as text. */
  z.strictObject({ type: z.literal("output"), text: z.string(), media }),
  /** The planner's finished plan. */
  z.strictObject({ type: z.literal("plan"), plan: z.string(), instructions: z.array(z.string()), code: z.string() }),
  /** The coder's deliverable: the function and its test, as the model wrote them. */
  z.strictObject({ type: z.literal("final_code"), code: z.string(), test: z.string() }),
  /** The planner's (or another agent's) task list. `view` only looks at it. */
  z.strictObject({ type: z.literal("task_list"), speaker: SpeakerSchema, command: z.enum(["view", "plan"]), tasks: z.array(TaskItemSchema) }),
  /** One move of the browsing agent (`done` ends the browsing; its summary is the answer). */
  z.strictObject({ type: z.literal("browser_step"), thinking: z.string(), action: BrowserActionWireSchema }),
  /** The screen a browsing move led to: its facts, the words the model was told, the screenshot in `media`. */
  z.strictObject({ type: z.literal("browser_screen"), screen: BrowserObservationWireSchema, text: z.string(), media }),
  /** A question for the person, with suggested answers (`payload`: whatever the asker attached; null when nothing). */
  z.strictObject({ type: z.literal("question"), prompt: z.string(), options: z.array(z.string()), payload: z.unknown() }),
  /** Candidate vision tools to choose between; `payload` is model-influenced, so the card checks it field by field. */
  z.strictObject({ type: z.literal("tool_review"), prompt: z.string(), options: z.array(z.string()), payload: z.unknown() }),
  /** The browser stopped to ask before a step; `payload` is null when it was unreadable. */
  z.strictObject({ type: z.literal("safety_check"), prompt: z.string(), options: z.array(z.string()), payload: SafetyPayloadSchema.nullable() }),
  /** A failure the person should see (a refused step, a run that gave up, an error). */
  z.strictObject({ type: z.literal("error"), text: z.string() }),
  /**
   * A run continued, a message answered again or edited, or the notebook rebuilt before a continue
   * (redo.ts): `from` is the person's message a Regenerate or Edit starts from.
   */
  z.strictObject({ type: z.literal("redo"), kind: RedoMarkSchema.shape.kind, from: z.number().nullable(), text: z.string() }),
  /** A run's closing output. */
  z.strictObject({ type: z.literal("result"), text: z.string() }),
  /** The person stopped the run here (the chat's notice; the step in flight shows its own partial output). */
  z.strictObject({ type: z.literal("stopped") }),
]);
export type ChatItem = z.infer<typeof ChatItemSchema>;
export type ChatItemType = ChatItem["type"];
export type ChatItemOf<T extends ChatItemType> = Extract<ChatItem, { type: T }>;

/** The interaction types: the run waits on the person's answer to one of these. */
export const INTERACTION_TYPES = ["question", "tool_review", "safety_check"] as const satisfies readonly ChatItemType[];
export type InteractionItem = ChatItemOf<(typeof INTERACTION_TYPES)[number]>;
