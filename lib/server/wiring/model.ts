import { modelStatus, type ArgusConfig } from "@/lib/foundation/config";
import { ModelCheck } from "@/lib/features/doctor/model-check";
import { notConfiguredMessage } from "@/lib/engines/llm/endpoint";
import { ModelClient } from "@/lib/engines/llm/models";
import { RoleHealth } from "@/lib/engines/llm/role-health";

export interface ModelParts {
  /** The model endpoint, or null when none is configured (messages then answer 503). */
  model: ModelClient | null;
  /** How each model role's recent calls went, for /api/health. */
  roleHealth: RoleHealth;
  /** The status page's "Check models" (the doctor, rate limited). */
  modelCheck: ModelCheck;
}

export function buildModel(config: ArgusConfig, log: (line: string) => void): ModelParts {
  const roleHealth = new RoleHealth((role) => notConfiguredMessage(config.model, role) === undefined);
  const model =
    modelStatus(config) === "configured" ? new ModelClient(config.model, { log, onCallEnd: (role, outcome) => roleHealth.record(role, outcome) }) : null;
  return { model, roleHealth, modelCheck: new ModelCheck(config.model, Date.now, config.browser.api) };
}
