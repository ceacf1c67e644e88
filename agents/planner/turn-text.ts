/**
 * How turns and pictures read in the planner's context: past tool calls as
 * tagged text, stubs for pictures not attached, labels for the ones that are,
 * the turn budget, and which pictures the newest turn attaches. Pure.
 */
import { fitWithin } from "@/lib/engines/llm/images";
import { truncateMiddle } from "@/lib/foundation/text/truncate-middle";
import type { ImageRef, PlannerTurnRecord } from "./turn-record";


const size = (ref: ImageRef) => `${ref.width}×${ref.height}`;

/** One line standing in for an image that is not attached. */
export function imageStub(ref: ImageRef): string {
  return `[image "${ref.label}" ${size(ref)} — not attached; to see it, call view_image(...) on it]`;
}

/** The line just before an attached image, so the model can tell pictures apart. */
export function attachedLabel(ref: ImageRef, why: string, maxEdge: number): string {
  const shown = fitWithin(ref.width, ref.height, maxEdge);
  const scaled = shown.width !== ref.width || shown.height !== ref.height;
  const note = scaled ? `, shown at ${size({ ...ref, ...shown })}; pixel coordinates in code refer to ${size(ref)}` : "";
  return `[image "${ref.label}" ${size(ref)} — ${why}${note}]`;
}

/** The planner's tool call as tagged text, the form the history is replayed in. */
export function renderTurnAction(turn: PlannerTurnRecord, fieldChars: number): string {
  const thinking = `<thinking>${truncateMiddle(turn.thinking, fieldChars)}</thinking>`;
  if (turn.kind === "ask") {
    const options = turn.options?.length ? `\nOptions:\n${turn.options.map((o) => `- ${o}`).join("\n")}` : "";
    return `${thinking}\n<ask_user>\n${truncateMiddle(turn.question ?? "", fieldChars)}${options}\n</ask_user>`;
  }
  return `${thinking}\n<execute_python>\n${truncateMiddle(turn.code ?? "", fieldChars)}\n</execute_python>`;
}

export function budgetLine(turnsDone: number, maxTurns: number): string {
  const left = Math.max(0, maxTurns - turnsDone);
  const current = turnsDone > 0 ? `Turn ${turnsDone + 1} of ${maxTurns}. ` : "";
  const count = `You have ${left} turn${left === 1 ? "" : "s"} left.`;
  if (left === 1) return `${current}${count} This is your last turn: call finalize_plan with what you have found.`;
  return `${current}${count}`;
}

/** Images the newest turn attaches, in order: viewed first, then displayed; deduplicated. */
export function newestTurnImages(turn: PlannerTurnRecord, known: ReadonlyMap<string, ImageRef>): { ref: ImageRef; viewed: boolean }[] {
  const seen = new Set<string>();
  const out: { ref: ImageRef; viewed: boolean }[] = [];
  const ownById = new Map(turn.observation.images.map((r) => [r.fileId, r]));
  for (const id of turn.observation.viewed) {
    const ref = ownById.get(id) ?? known.get(id);
    // An id nobody recorded cannot be shown; the agent's records are the source of truth.
    if (!ref || seen.has(id)) continue;
    seen.add(id);
    out.push({ ref, viewed: true });
  }
  for (const ref of turn.observation.images) {
    if (seen.has(ref.fileId)) continue;
    seen.add(ref.fileId);
    out.push({ ref, viewed: false });
  }
  return out;
}
