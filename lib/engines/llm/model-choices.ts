import { MODEL_ROLES, REQUIRED_ROLES, type ModelRole } from "@/lib/foundation/protocol/agent-cards";
import type { ModelChoices } from "@/lib/foundation/protocol/model-choices";

/**
 * `GET /api/models`: the endpoint's models, and each role with the server's model for it (null:
 * none named). An optional agent's role (the browser's) is offered only where the server runs that
 * agent, as everywhere else: choosing a model for it would not turn browsing on.
 */
export function modelChoices(listed: readonly string[], byRole: Partial<Record<ModelRole, string | null>>): ModelChoices {
  const offered = MODEL_ROLES.filter((role) => REQUIRED_ROLES.includes(role) || (byRole[role] ?? null) !== null);
  return { models: [...listed], roles: offered.map((role) => ({ role, serverModel: byRole[role] ?? null })) };
}
