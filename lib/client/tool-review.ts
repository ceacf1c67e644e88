/**
 * The tool-review card's data: the candidates' detections from an
 * interaction's payload, the slider's filtering, box placement, and the
 * person's answer. Pure; the payload is model-influenced, so it is validated
 * field by field. The answer travels typed (lib/foundation/protocol/interaction-choice.ts),
 * so no text is read here.
 */
import type { InteractionChoice, ToolReviewChoice } from "@/lib/foundation/protocol/interaction-choice";
import { isSafeImageUrl } from "./links";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const asString = (v: unknown): string => (typeof v === "string" ? v : "");

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
  /** The judge's pick and where its slider opens; null when the payload names none (or a tool not among the candidates). */
  suggested: ToolSuggestion | null;
}

export interface ToolSuggestion {
  functionName: string;
  /** null when the payload gives no usable threshold. */
  boxThreshold: number | null;
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
  return { image: payload.image, width: positive(payload.width), height: positive(payload.height), candidates, suggested: parseSuggestion(payload.suggested, candidates) };
}

const unitInterval = (v: unknown): number | null => (finite(v) && v >= 0 && v <= 1 ? v : null);

function parseSuggestion(v: unknown, candidates: readonly ToolCandidate[]): ToolSuggestion | null {
  if (!isRecord(v) || typeof v.function_name !== "string" || !candidates.some((c) => c.functionName === v.function_name)) return null;
  return { functionName: v.function_name, boxThreshold: unitInterval(v.box_threshold) };
}

/** The original app's default; below most tools' own cut-off, so every box starts visible. */
export const DEFAULT_REVIEW_THRESHOLD = 0.05;

/**
 * Where the card opens: on the answer already given, else on the judge's pick at its threshold,
 * else on the first candidate at its own threshold (or the default).
 */
export function openingChoice(review: ToolReview, previous: ToolReviewAnswer | null): { index: number; threshold: number } {
  const indexOf = (name: string | undefined) => review.candidates.findIndex((c) => c.functionName === name);
  if (previous && indexOf(previous.functionName) !== -1) return { index: indexOf(previous.functionName), threshold: previous.boxThreshold };
  const index = Math.max(0, indexOf(review.suggested?.functionName));
  const own = unitInterval(review.candidates[index]?.args.box_threshold);
  return { index, threshold: review.suggested?.boxThreshold ?? own ?? DEFAULT_REVIEW_THRESHOLD };
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

/** The tool and threshold a tool review was answered with, or null when it was answered in words. */
export function toolReviewAnswer(answer: CardAnswer | null): ToolReviewAnswer | null {
  const choice = answer?.choice;
  return choice?.kind === "tool_review" ? { functionName: choice.function_name, boxThreshold: choice.box_threshold } : null;
}

/** The card's pick as the answer's typed fields (the threshold as the slider shows it, to 2 places). */
export function toolReviewChoice(functionName: string, threshold: number): ToolReviewChoice {
  return { kind: "tool_review", function_name: functionName, box_threshold: Number(threshold.toFixed(2)) };
}

/**
 * An answer as a card sends it and the chat item brings it back: the person's words, or a card's
 * typed fields (`text` is then the choice's text form, or "" while it is being sent).
 */
export interface CardAnswer {
  text: string;
  choice?: InteractionChoice;
}

/** What "You answered: …" shows: a card's choice in words, anything else as it was written. */
export function describeAnswer(answer: CardAnswer): string {
  const choice = answer.choice;
  return choice ? `${choice.function_name} (confidence ≥ ${choice.box_threshold.toFixed(2)})` : answer.text;
}
