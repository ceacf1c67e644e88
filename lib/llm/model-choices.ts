import { MODEL_ROLES, type ModelRole } from "@/lib/protocol/agent-cards";
import type { ModelChoices } from "@/lib/protocol/model-choices";

/** `GET /api/models`: the endpoint's models, and each role with the server's model for it (null: none named). */
export function modelChoices(listed: readonly string[], byRole: Partial<Record<ModelRole, string | null>>): ModelChoices {
  return { models: [...listed], roles: MODEL_ROLES.map((role) => ({ role, serverModel: byRole[role] ?? null })) };
}
