/**
 * How the scripted model answers a model check (lib/features/doctor/probe.ts marks its requests with the
 * `x-argus-doctor` header) that its scenario has no turn for: as the capable model it stands in
 * for would, a call of the offered tool, or a short text. Without it, "Check models" on a running
 * scripted world met turns scripted for Argus's own calls: it was refused (every role "down" while
 * Argus worked), or it used up a turn the person's next message needed. Pure.
 */
import type { ChatRequest } from "./request";
import { offeredToolNames } from "./request";
import type { Turn } from "./scenario";

export const PROBE_HEADER = "x-argus-doctor";

/** The model names Argus's scripted setup gives its roles (README, "Try it without a model"). */
export const ROLE_MODEL_NAMES = ["conversation", "planner", "coder", "vqa", "judge"] as const;

/**
 * What `GET /v1/models` lists to a model check: the scenario's models, then the role names it
 * lacks, since a check of any of them is answered (probeTurn). Argus's own listing is the scenario's.
 */
export function servedModels(scenarioModels: readonly string[]): string[] {
  return [...new Set([...scenarioModels, ...ROLE_MODEL_NAMES])];
}

export function probeTurn(request: ChatRequest): Turn {
  const [tool] = offeredToolNames(request);
  if (tool !== undefined) return { model: request.model, toolCalls: [{ name: tool, args: { ok: true } }] };
  return { model: request.model, text: "ok" };
}
