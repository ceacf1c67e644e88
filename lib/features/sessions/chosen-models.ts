import type { ModelRole } from "@/lib/foundation/protocol/agent-cards";
import { SessionSettings } from "@/lib/foundation/protocol/api";

/**
 * The models a session's person chose per role (the chat's model picker), read from the
 * session's stored settings. Stored settings were validated when written; read again here, so a
 * row written by an older or newer Argus can never put something else into a model request.
 */
export function chosenModels(settings: Record<string, unknown>): Partial<Record<ModelRole, string>> {
  const parsed = SessionSettings.shape.models.safeParse(settings.models);
  return parsed.success && parsed.data ? parsed.data : {};
}
