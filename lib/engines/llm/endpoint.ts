/**
 * Where a role's requests go, and what to tell the person when that is not known yet. Pure:
 * the app starts without a model, and the page shows `notConfiguredMessage` instead of failing.
 */
import type { ModelRole, ToolProtocolSetting } from "@/lib/foundation/config";

export const modelEnvVar = (role: ModelRole): string => `ARGUS_MODEL_${role.toUpperCase()}`;

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface ModelSettings {
  apiKey: string | null;
  baseUrl: string | null;
  /** A role left out has no model (the optional `browser` role in older callers and tests). */
  byRole: Partial<Record<ModelRole, string | null>>;
  /** From ARGUS_TOOL_PROTOCOL(_<ROLE>); unset means auto. */
  protocolByRole?: Partial<Record<ModelRole, ToolProtocolSetting>>;
  /** From ARGUS_MODEL_TIMEOUT_SECONDS; ModelClient options override it. */
  timeoutMs?: number;
  /** From ARGUS_MODEL_MAX_RETRIES; ModelClient options override it. */
  maxRetries?: number;
}

/** A key alone means OpenAI; a base URL alone means a local server that needs no key. */
export function effectiveBaseUrl(settings: Pick<ModelSettings, "baseUrl">): string {
  return (settings.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
}

/** Why `role` cannot be called, as instructions, or undefined when it can. */
export function notConfiguredMessage(settings: ModelSettings, role: ModelRole): string | undefined {
  const missing: string[] = [];
  if (settings.apiKey === null && settings.baseUrl === null) {
    missing.push(
      "set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for an OpenAI-compatible server (Ollama: http://localhost:11434/v1)",
    );
  }
  if ((settings.byRole[role] ?? null) === null) {
    missing.push(`set ARGUS_MODEL (or ${modelEnvVar(role)}) to the name of the model to use`);
  }
  if (missing.length === 0) return undefined;
  return `No model is configured for the ${role}: ${missing.join(", and ")}.`;
}
