/**
 * Planner memory: what the planner model is sent on each turn.
 *
 * The original planner replays its whole transcript on every call: every 50 KB print and every
 * image it ever made go out again each turn, so a run's cost grows with the square of its length.
 * Argus sends a bounded window that keeps what the next decision depends on.
 *
 * Rules
 * 1. The system prompt is passed through untouched (the agent owns its wording).
 * 2. Message 1 (user) holds the person's task, the uploads listed by label and size, and
 *    "Turn 1 of N". Before the first turn the uploads are attached as images (at most K; the rest
 *    become text stubs), so the planner sees them without spending a turn on view_image. After
 *    turn 1 they are stubs only: the planner has seen them, and message 1 stays byte-identical from
 *    then on. An upload whose fileId the newest turn passed to view_image is attached again, with
 *    that turn's images.
 * 3. Each past turn is an assistant message, the tool call rendered as tagged text
 *    (`<thinking>…</thinking>` + `<execute_python>…</execute_python>` or `<ask_user>…</ask_user>`),
 *    then a user message "Observation (turn k):" with what came back. Text, not tool-call and
 *    tool-result messages, because most OpenAI-compatible endpoints cannot put images in a tool
 *    result, and plain text replays the same way on every provider.
 * 4. Observation text is cut by `truncateMiddle`: the newest to `lastObservationChars`, older ones
 *    to `olderObservationChars`. Code, thinking and questions are kept (the model refers to its own
 *    variables) up to PAST_TURN_FIELD_CHARS in older turns, `lastObservationChars` in the newest.
 * 5. Images: only the newest turn's are attached, at most K — the ones it passed to view_image
 *    first (the planner asked to see those), then the ones the cell displayed. Every other image in
 *    the history is a one-line stub naming its label and size; the newest observation says how
 *    many of its images were left out. Attached images carry a label line, and the size they are
 *    shown at when downscaled, so pixel coordinates are not misread.
 * 6. The last user message ends with the turn budget: "You have R turns left." (R counts the turn
 *    being decided), and on the last turn an instruction to finalize.
 * 7. Deterministic and free of I/O apart from `prepareImage`. Between consecutive calls, the
 *    messages of all turns but the two newest are byte-identical, so provider prefix caches hit.
 */
import type { ImagePart, ModelMessage, TextPart } from "ai";
import { MAX_EDGE } from "@/lib/engines/llm/images";
import { truncateMiddle } from "@/lib/foundation/text/truncate-middle";
import type { ImageRef, PlannerTurnRecord, PrepareImage } from "./turn-record";
import { attachedLabel, budgetLine, imageStub, newestTurnImages, renderTurnAction } from "./turn-text";

// Callers describe turns and pictures with these types; they import them from here.
export type { ImageRef, PlannerTurnRecord, PrepareImage } from "./turn-record";

export interface ContextLimits {
  /** Cap for the newest observation: whole up to the cap, else head + tail. */
  lastObservationChars: number;
  /** Cap for every older observation. */
  olderObservationChars: number;
  /** K: images attached to one request. */
  maxImagesPerTurn: number;
  /** Long edge of an attached image, in pixels. */
  maxImageEdge: number;
}

export const DEFAULT_CONTEXT_LIMITS: ContextLimits = {
  lastObservationChars: 20_000,
  olderObservationChars: 2_000,
  maxImagesPerTurn: 4,
  maxImageEdge: MAX_EDGE,
};

/** Cap on thinking, code and question of an older turn: long enough for any real cell. */
export const PAST_TURN_FIELD_CHARS = 4_000;

export interface PlannerContextInput {
  system: string;
  task: { text: string; uploads: ImageRef[] };
  turns: PlannerTurnRecord[];
  maxTurns: number;
  limits?: Partial<ContextLimits>;
}

export interface ContextStats {
  /** Characters of text sent, system prompt included. */
  chars: number;
  /** Image parts attached. */
  images: number;
  /** Images mentioned by a stub instead of attached. */
  imageStubs: number;
  /** Observations that were cut by truncateMiddle. */
  truncatedObservations: number;
}

// ---------------------------------------------------------------------------------------------
// Assembly

type UserPart = TextPart | ImagePart;

/** Collects text and images; adjacent text lines merge into one part. */
class PartsBuilder {
  readonly parts: UserPart[] = [];
  private lines: string[] = [];

  text(line: string): this {
    this.lines.push(line);
    return this;
  }

  image(part: ImagePart): this {
    this.flush();
    this.parts.push(part);
    return this;
  }

  build(): UserPart[] {
    this.flush();
    return this.parts;
  }

  private flush(): void {
    if (this.lines.length > 0) this.parts.push({ type: "text", text: this.lines.join("\n") });
    this.lines = [];
  }
}

function resolveLimits(partial: Partial<ContextLimits> | undefined): ContextLimits {
  const limits = { ...DEFAULT_CONTEXT_LIMITS, ...partial };
  for (const [name, value] of Object.entries(limits)) {
    const min = name === "maxImagesPerTurn" ? 0 : 1;
    if (!Number.isInteger(value) || value < min) throw new RangeError(`context limit ${name} must be an integer ≥ ${min}, got ${value}`);
  }
  return limits;
}

interface Attachment {
  ref: ImageRef;
  why: string;
}

/**
 * Adds images: up to `room` attached (label line + image), the rest as stubs, and a note when
 * some were left out. Returns how many were attached and how many stubbed.
 */
async function addImages(
  b: PartsBuilder,
  items: Attachment[],
  room: number,
  limits: ContextLimits,
  prepareImage: PrepareImage,
  what: string,
): Promise<{ attached: number; stubbed: number }> {
  const attach = items.slice(0, room);
  const rest = items.slice(room);
  const prepared = await Promise.all(attach.map((a) => prepareImage(a.ref, limits.maxImageEdge)));
  attach.forEach((a, i) => b.text(attachedLabel(a.ref, a.why, limits.maxImageEdge)).image(prepared[i]!));
  for (const a of rest) b.text(imageStub(a.ref));
  if (rest.length > 0) {
    b.text(`[${rest.length} of ${items.length} ${what} left out: at most ${limits.maxImagesPerTurn} images are attached per request]`);
  }
  return { attached: attach.length, stubbed: rest.length };
}

export async function buildPlannerMessages(
  input: PlannerContextInput,
  prepareImage: PrepareImage,
): Promise<{ system: string; messages: ModelMessage[]; stats: ContextStats }> {
  const limits = resolveLimits(input.limits);
  const { task, turns, maxTurns } = input;
  const stats: ContextStats = { chars: input.system.length, images: 0, imageStubs: 0, truncatedObservations: 0 };
  const messages: ModelMessage[] = [];
  const budget = budgetLine(turns.length, maxTurns);

  // Message 1: the task.
  const first = new PartsBuilder().text(task.text);
  if (task.uploads.length > 0) {
    first.text("").text(`Uploaded images (${task.uploads.length}):`);
    if (turns.length === 0) {
      const items = task.uploads.map((ref) => ({ ref, why: "uploaded" }));
      const r = await addImages(first, items, limits.maxImagesPerTurn, limits, prepareImage, "uploads");
      stats.images += r.attached;
      stats.imageStubs += r.stubbed;
    } else {
      for (const ref of task.uploads) first.text(imageStub(ref));
      stats.imageStubs += task.uploads.length;
    }
  }
  first.text("").text(`Turn 1 of ${maxTurns}.`);
  if (turns.length === 0) first.text(budget);
  messages.push({ role: "user", content: first.build() });

  // Every image the history knows, so view_image of an upload or an old picture resolves.
  const known = new Map<string, ImageRef>();
  for (const ref of [...task.uploads, ...turns.flatMap((t) => t.observation.images)]) {
    if (!known.has(ref.fileId)) known.set(ref.fileId, ref);
  }

  for (const [index, turn] of turns.entries()) {
    const newest = index === turns.length - 1;
    const fieldChars = newest ? limits.lastObservationChars : PAST_TURN_FIELD_CHARS;
    messages.push({ role: "assistant", content: renderTurnAction(turn, fieldChars) });

    const cap = newest ? limits.lastObservationChars : limits.olderObservationChars;
    // Trailing newlines from print() carry nothing; dropping them keeps the layout tidy.
    const full = turn.observation.text.trimEnd();
    if (full.length > cap) stats.truncatedObservations++;
    const obs = new PartsBuilder().text(`Observation (turn ${turn.turn}):`);
    if (turn.notice !== undefined) obs.text(`[${turn.notice}]`);
    obs.text(full.length > 0 ? truncateMiddle(full, cap) : "(no output)");

    if (newest) {
      const items = newestTurnImages(turn, known).map(({ ref, viewed }) => ({ ref, why: viewed ? "you viewed it" : "displayed by the cell" }));
      if (items.length > 0) obs.text("");
      const r = await addImages(obs, items, limits.maxImagesPerTurn, limits, prepareImage, "images from this turn");
      stats.images += r.attached;
      stats.imageStubs += r.stubbed;
      obs.text("").text(budget);
    } else {
      if (turn.observation.images.length > 0) obs.text("");
      for (const ref of turn.observation.images) obs.text(imageStub(ref));
      stats.imageStubs += turn.observation.images.length;
    }
    messages.push({ role: "user", content: obs.build() });
  }

  stats.chars += countChars(messages);
  return { system: input.system, messages, stats };
}

/** Characters of text in messages (strings and text parts; images are counted separately). */
export function countChars(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of messages) {
    if (typeof m.content === "string") n += m.content.length;
    else for (const part of m.content) if (part.type === "text") n += part.text.length;
  }
  return n;
}
