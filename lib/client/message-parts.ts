/**
 * Pure converters from the chat's wire messages to what the chat UI draws.
 * Everything here is a string → data function with no React and no I/O, so
 * the tag formats of `lib/runtime/projection.ts` and the section format of
 * `lib/kernels/execution-text.ts` are pinned by unit tests beside this file.
 *
 * Every parser is total: model output is untrusted and sometimes truncated,
 * so malformed input yields empty fields or null, never an exception that
 * would blank the whole chat.
 */
import type { StreamedMessage } from "@/lib/protocol/agent-message";

// ---------------------------------------------------------------------------
// Tags

/**
 * The text between the first `<tag>` and the last `</tag>` after it. The last
 * close tag (not the first) so that code which mentions the tag in a string
 * literal stays whole. An unclosed tag yields the rest of the text: a cut-off
 * message still shows what arrived. Null when the open tag is absent.
 */
function between(content: string, tag: string, from = 0): { inner: string; end: number } | null {
  const open = `<${tag}>`;
  const start = content.indexOf(open, from);
  if (start === -1) return null;
  const innerStart = start + open.length;
  const close = content.lastIndexOf(`</${tag}>`);
  if (close < innerStart) return { inner: content.slice(innerStart), end: content.length };
  return { inner: content.slice(innerStart, close), end: close + tag.length + 3 };
}

/** The projection wraps code in newlines (`<tag>\n…\n</tag>`); drop exactly those. */
function unwrapNewlines(s: string): string {
  return s.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const asString = (v: unknown): string => (typeof v === "string" ? v : "");
const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

// ---------------------------------------------------------------------------
// Planner / coder steps

export interface ParsedStep {
  thinking: string;
  code: string;
}

/**
 * `<thinking>…</thinking>\n<execute_python>\n…\n</execute_python>` (thinking
 * optional). The thinking ends at its first close tag — it precedes the code,
 * and code is the part most likely to contain tag-like strings.
 */
export function parseStep(content: string): ParsedStep {
  let thinking = "";
  let rest = content;
  const tStart = content.indexOf("<thinking>");
  const codeStart = content.indexOf("<execute_python>");
  if (tStart !== -1 && (codeStart === -1 || tStart < codeStart)) {
    const innerStart = tStart + "<thinking>".length;
    const tEnd = content.indexOf("</thinking>", innerStart);
    if (tEnd === -1) {
      // Unclosed thinking: it runs up to the code, if any.
      thinking = content.slice(innerStart, codeStart === -1 ? undefined : codeStart);
      rest = codeStart === -1 ? "" : content.slice(codeStart);
    } else {
      thinking = content.slice(innerStart, tEnd);
      rest = content.slice(tEnd + "</thinking>".length);
    }
  }
  const code = between(rest, "execute_python");
  return { thinking: thinking.trim(), code: code ? unwrapNewlines(code.inner) : "" };
}

/** Whether a planner/coder message is a code step (as opposed to a plan, final code or a note). */
export function isStep(content: string): boolean {
  return content.includes("<execute_python>");
}

// ---------------------------------------------------------------------------
// Coder final, planner plan

export interface FinalCode {
  code: string;
  test: string;
}

/** `<final_code>…</final_code>\n<final_test>…</final_test>`; null without a final_code tag. */
export function parseFinalCode(content: string): FinalCode | null {
  const testStart = content.indexOf("<final_test>");
  // Bound the code by the test tag so the code's "last close tag" is its own.
  const codePart = testStart === -1 ? content : content.slice(0, testStart);
  const code = between(codePart, "final_code");
  if (!code) return null;
  const test = testStart === -1 ? null : between(content.slice(testStart), "final_test");
  return { code: unwrapNewlines(code.inner), test: test ? unwrapNewlines(test.inner) : "" };
}

export interface ParsedPlan {
  plan: string;
  instructions: string[];
  code: string;
}

/** `<plan>{"plan", "instructions", "code"}</plan>`; null when absent or not a JSON object. */
export function parsePlan(content: string): ParsedPlan | null {
  const tag = between(content, "plan");
  if (!tag) return null;
  const data = parseJson(tag.inner);
  if (!isRecord(data)) return null;
  const instructions = Array.isArray(data.instructions)
    ? asStrings(data.instructions)
    : asString(data.instructions)
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
  return { plan: asString(data.plan), instructions, code: asString(data.code) };
}

// ---------------------------------------------------------------------------
// Interactions

export type InteractionKind = "question" | "tool_review";

export interface ParsedInteraction {
  kind: InteractionKind;
  prompt: string;
  options: string[];
  payload: unknown;
}

/** `<interaction>{kind, prompt, options, payload}</interaction>`; null when malformed or of an unknown kind. */
export function parseInteraction(content: string): ParsedInteraction | null {
  const tag = between(content, "interaction");
  if (!tag) return null;
  const data = parseJson(tag.inner);
  if (!isRecord(data)) return null;
  if (data.kind !== "question" && data.kind !== "tool_review") return null;
  return { kind: data.kind, prompt: asString(data.prompt), options: asStrings(data.options), payload: data.payload ?? null };
}

export type BBox = [number, number, number, number];

export interface Detection {
  label: string;
  score: number;
  /** [x1, y1, x2, y2] in image pixels. */
  bbox: BBox;
}

export interface ToolCandidate {
  functionName: string;
  args: Record<string, unknown>;
  detections: Detection[];
}

export interface ToolReview {
  image: string;
  /** Intrinsic size the boxes refer to; null when the payload omits it (the image's natural size is used). */
  width: number | null;
  height: number | null;
  candidates: ToolCandidate[];
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const positive = (v: unknown): number | null => (finite(v) && v > 0 ? v : null);

function parseDetection(v: unknown): Detection | null {
  if (!isRecord(v) || !Array.isArray(v.bbox) || v.bbox.length !== 4 || !v.bbox.every(finite)) return null;
  const [a, b, c, d] = v.bbox as BBox;
  // Normalise corner order so a box drawn from x2,y2 still has a positive size.
  const bbox: BBox = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  return { label: asString(v.label), score: finite(v.score) ? v.score : 1, bbox };
}

/**
 * The tool_review payload, or null when it has no usable image or candidate.
 * The image must be a same-origin path or an http(s) URL: it is put into an
 * `<img src>`, and the payload is ultimately model-influenced.
 */
export function parseToolReview(payload: unknown): ToolReview | null {
  if (!isRecord(payload) || typeof payload.image !== "string" || !isSafeImageUrl(payload.image)) return null;
  const candidates: ToolCandidate[] = [];
  for (const c of Array.isArray(payload.candidates) ? payload.candidates : []) {
    if (!isRecord(c) || typeof c.function_name !== "string" || !c.function_name) continue;
    const detections = (Array.isArray(c.detections) ? c.detections : [])
      .map(parseDetection)
      .filter((d): d is Detection => d !== null);
    candidates.push({ functionName: c.function_name, args: isRecord(c.args) ? c.args : {}, detections });
  }
  if (candidates.length === 0) return null;
  return { image: payload.image, width: positive(payload.width), height: positive(payload.height), candidates };
}

/** Detections at or above the threshold (the slider hides the rest). */
export function visibleDetections(detections: readonly Detection[], threshold: number): Detection[] {
  return detections.filter((d) => d.score >= threshold);
}

/**
 * A box as percentages of the image, so absolutely positioned overlays scale
 * with whatever size the image is displayed at. Clamped to the image.
 */
export function boxPercent(bbox: BBox, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const x1 = clamp(bbox[0], width);
  const y1 = clamp(bbox[1], height);
  const x2 = clamp(bbox[2], width);
  const y2 = clamp(bbox[3], height);
  return { left: (x1 / width) * 100, top: (y1 / height) * 100, width: ((x2 - x1) / width) * 100, height: ((y2 - y1) / height) * 100 };
}

export interface ToolReviewAnswer {
  functionName: string;
  boxThreshold: number;
}

/** The JSON answer to a tool review (`{"function_name", "box_threshold"}`), or null for any other text. */
export function parseToolReviewAnswer(text: string): ToolReviewAnswer | null {
  const data = parseJson(text);
  if (!isRecord(data) || typeof data.function_name !== "string" || !finite(data.box_threshold)) return null;
  return { functionName: data.function_name, boxThreshold: data.box_threshold };
}

/** What "You answered: …" shows: a tool review's JSON reads as words, anything else as is. */
export function describeAnswer(text: string): string {
  const review = parseToolReviewAnswer(text);
  if (review) return `${review.functionName} (confidence ≥ ${review.boxThreshold.toFixed(2)})`;
  return text;
}

// ---------------------------------------------------------------------------
// Observations

export interface ParsedObservation {
  stdout: string;
  stderr: string;
  value: string;
  /** The server's caption for the pictures ("2 image(s) displayed"); the pictures are in `media`. */
  images: string;
  error: string;
  /** Text outside any known section (e.g. "(the cell ran without output)"). */
  other: string;
}

const SECTION = /^----- (stdout|stderr|value|images|error) -----$/;
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Terminal rendering for display: colour codes dropped, and a progress bar's
 * carriage-return redraws collapsed to their final state, as a terminal shows.
 */
export function cleanTerminalText(text: string): string {
  return text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => {
      const l = line.replace(/\r$/, "");
      const i = l.lastIndexOf("\r");
      return i === -1 ? l : l.slice(i + 1);
    })
    .join("\n");
}

/** Splits `executionText` output into its `----- name -----` sections. */
export function parseObservation(text: string): ParsedObservation {
  const out: ParsedObservation = { stdout: "", stderr: "", value: "", images: "", error: "", other: "" };
  const buckets: Record<keyof ParsedObservation, string[]> = { stdout: [], stderr: [], value: [], images: [], error: [], other: [] };
  let current: keyof ParsedObservation = "other";
  for (const line of text.split("\n")) {
    const m = SECTION.exec(line.replace(/\r$/, ""));
    if (m) current = m[1] as keyof ParsedObservation;
    else buckets[current].push(line);
  }
  for (const key of Object.keys(out) as (keyof ParsedObservation)[]) {
    out[key] = cleanTerminalText(buckets[key].join("\n")).replace(/^\n+|\s+$/g, "");
  }
  return out;
}

// ---------------------------------------------------------------------------
// Links (Markdown from the model)

export type LinkTarget = { kind: "external"; href: string } | { kind: "internal"; href: string } | { kind: "inert" };

/**
 * How a Markdown link may render. http(s) opens in a new tab; same-origin
 * paths, fragments and mailto stay ordinary links; anything else (javascript:,
 * data:, vbscript:, protocol-relative `//host`) is shown as text only.
 */
export function classifyLink(href: string | null | undefined): LinkTarget {
  const h = (href ?? "").trim();
  if (!h) return { kind: "inert" };
  if (/^https?:\/\//i.test(h)) return { kind: "external", href: h };
  if (/^mailto:/i.test(h)) return { kind: "internal", href: h };
  // Browsers ignore tabs/newlines inside schemes ("java\tscript:"), so any
  // colon before the first / ? # means a scheme we do not allow.
  if (h.startsWith("//") || h.startsWith("\\")) return { kind: "inert" };
  const colon = h.indexOf(":");
  const firstDelimiter = h.search(/[/?#]/);
  if (colon !== -1 && (firstDelimiter === -1 || colon < firstDelimiter)) return { kind: "inert" };
  return { kind: "internal", href: h };
}

/** Images the chat may load: same-origin paths (not `//host`) and http(s). */
export function isSafeImageUrl(src: string): boolean {
  const t = classifyLink(src);
  return t.kind === "external" || (t.kind === "internal" && !/^mailto:/i.test(src.trim()));
}

// ---------------------------------------------------------------------------
// Grouping

export type StepAgent = "planner" | "coder";

export type DisplayItem =
  /** user, assistant, conversation, final_observation, planner/coder notes, and any unpaired message. */
  | { kind: "message"; key: string; message: StreamedMessage }
  /** A code step with the observation that answered it (null while the cell runs). `index` counts steps of this agent in the run, from 1. */
  | { kind: "turn"; key: string; agent: StepAgent; index: number; step: StreamedMessage; observation: StreamedMessage | null }
  | { kind: "plan"; key: string; message: StreamedMessage }
  | { kind: "final_code"; key: string; message: StreamedMessage }
  /**
   * `response` is the interaction_response that answered it, if any.
   * `responseInline`: the card also renders the response message itself; when
   * false, other messages came in between, so the response is additionally
   * listed as its own item at its place (transcript order stays seq order).
   */
  | { kind: "interaction"; key: string; message: StreamedMessage; response: StreamedMessage | null; responseInline: boolean }
  /** Only the latest error with no later user message offers Retry. */
  | { kind: "error"; key: string; message: StreamedMessage; retryable: boolean };

const keyOf = (m: StreamedMessage) => `seq-${m.seq}`;

/** Messages in seq order, one per seq (a re-sent seq replaces the earlier copy). */
function ordered(messages: readonly StreamedMessage[]): StreamedMessage[] {
  let sorted = true;
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.seq <= messages[i - 1]!.seq) {
      sorted = false;
      break;
    }
  }
  if (sorted) return [...messages];
  const bySeq = new Map<number, StreamedMessage>();
  for (const m of messages) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * Wire messages → what the chat lists. A planner/coder code step absorbs the
 * observation that directly follows it in the same run; an interaction is
 * answered by the next interaction_response — given to the most recent
 * unanswered interaction, since that is the one the server waits on.
 *
 * Invariant: every message is rendered exactly once and in seq order (the
 * e2e transcript check relies on it), so a message is only folded into an
 * earlier item when nothing was listed in between.
 *
 * Keys are the first message's seq, so an item keeps its key (and its
 * component state) when its observation or answer arrives later.
 */
export function groupMessages(messages: readonly StreamedMessage[]): DisplayItem[] {
  const items: DisplayItem[] = [];
  const openStep = new Map<string | null, Extract<DisplayItem, { kind: "turn" }>>();
  const stepCounts = new Map<string, number>();
  const unanswered: Extract<DisplayItem, { kind: "interaction" }>[] = [];

  for (const m of ordered(messages)) {
    const run = m.runId;
    switch (m.role) {
      case "planner":
      case "coder": {
        openStep.delete(run);
        const lead = m.content.trimStart();
        // The leading tag decides: a plan's JSON may well mention <execute_python>.
        if (lead.startsWith("<plan>") && parsePlan(m.content)) {
          items.push({ kind: "plan", key: keyOf(m), message: m });
        } else if (lead.startsWith("<final_code>")) {
          items.push({ kind: "final_code", key: keyOf(m), message: m });
        } else if (isStep(m.content)) {
          const countKey = `${m.role}:${run ?? ""}`;
          const index = (stepCounts.get(countKey) ?? 0) + 1;
          stepCounts.set(countKey, index);
          const item = { kind: "turn" as const, key: keyOf(m), agent: m.role, index, step: m, observation: null };
          items.push(item);
          openStep.set(run, item);
        } else {
          items.push({ kind: "message", key: keyOf(m), message: m });
        }
        break;
      }
      case "observation": {
        const step = openStep.get(run);
        openStep.delete(run);
        if (step && items[items.length - 1] === step) {
          step.observation = m;
        } else {
          items.push({ kind: "message", key: keyOf(m), message: m });
        }
        break;
      }
      case "error_observation":
        // A run-level error ends the step: a later observation is not its output.
        openStep.delete(run);
        items.push({ kind: "error", key: keyOf(m), message: m, retryable: false });
        break;
      case "interaction": {
        const item = { kind: "interaction" as const, key: keyOf(m), message: m, response: null, responseInline: false };
        items.push(item);
        unanswered.push(item);
        break;
      }
      case "interaction_response": {
        const target = unanswered.pop();
        if (target) {
          target.response = m;
          target.responseInline = items[items.length - 1] === target;
        }
        if (!target?.responseInline) items.push({ kind: "message", key: keyOf(m), message: m });
        break;
      }
      default:
        items.push({ kind: "message", key: keyOf(m), message: m });
    }
  }

  // Retry belongs to the latest failure only, and only until the person has
  // moved on (sent a message or answered a question after it).
  let lastSpoke = -1;
  for (const m of messages) {
    if ((m.role === "user" || m.role === "interaction_response") && m.seq > lastSpoke) lastSpoke = m.seq;
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "error") {
      item.retryable = item.message.seq > lastSpoke;
      break;
    }
  }
  return items;
}

/**
 * The seq of the newest interaction nobody answered, or undefined. Combine
 * with the run state (awaiting_user_input) to get `pendingSeq`: an old
 * unanswered question from a cancelled run is not pending.
 */
export function lastUnansweredInteractionSeq(items: readonly DisplayItem[]): number | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === "interaction") return item.response ? undefined : item.message.seq;
  }
  return undefined;
}
