/**
 * Health's `models`: how each role's model is doing, from how its last call went. Passive: it
 * never spends a token. Pure apart from what `record` is told.
 */
import { MODEL_ROLES, REQUIRED_ROLES, type ModelRole } from "@/lib/config";
import type { ModelHealth } from "@/lib/protocol/doctor";
import type { ModelError, ModelErrorKind } from "./errors";

export interface CallOutcome {
  ok: boolean;
  /** A transient failure (429, 5xx, timeout, dropped connection) was retried. */
  retried: boolean;
  /** The model's output needed a correction. */
  repaired: boolean;
  /** The call went through the text protocol. */
  textProtocol: boolean;
  error?: ModelError;
}

/** Failures that say the model can't be used as configured, as opposed to a bad moment or a bad request. */
const DOWN_KINDS = new Set<ModelErrorKind>(["not_configured", "auth", "unknown_model", "unreachable", "timeout", "server_error", "tools_unsupported", "bad_output"]);

export function healthOf(outcome: CallOutcome | undefined): ModelHealth {
  if (outcome === undefined) return "ok";
  if (!outcome.ok) return outcome.error !== undefined && DOWN_KINDS.has(outcome.error.kind) ? "down" : "degraded";
  return outcome.retried || outcome.repaired || outcome.textProtocol ? "degraded" : "ok";
}

export class RoleHealth {
  private readonly last = new Map<ModelRole, CallOutcome>();

  constructor(private readonly configured: (role: ModelRole) => boolean) {}

  record(role: ModelRole, outcome: CallOutcome): void {
    // A cancel says nothing about the model.
    if (outcome.error?.kind === "cancelled") return;
    this.last.set(role, outcome);
  }

  snapshot(): Partial<Record<ModelRole, ModelHealth>> {
    const roles = MODEL_ROLES.filter((role) => REQUIRED_ROLES.includes(role) || this.configured(role));
    return Object.fromEntries(roles.map((role) => [role, this.configured(role) ? healthOf(this.last.get(role)) : "down"]));
  }
}
