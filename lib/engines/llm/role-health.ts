/**
 * Health's `models`: how each role's model is doing, from how its last call went. Passive: it
 * never spends a token. Pure apart from what `record` is told.
 */
import { MODEL_ROLES, REQUIRED_ROLES, type ModelRole } from "@/lib/foundation/config";
import type { ModelHealth } from "@/lib/foundation/protocol/doctor";
import type { ModelError, ModelErrorKind } from "./errors";
import { HABIT_LABELS, type ModelHabit } from "./tool-call-habits";

export interface CallOutcome {
  ok: boolean;
  /** A transient failure (429, 5xx, timeout, dropped connection) was retried. */
  retried: boolean;
  /** The model's output needed a correction. */
  repaired: boolean;
  /** The call went through the text protocol. */
  textProtocol: boolean;
  /** Model habits undone to read its replies (tool-call-habits.ts); absent means none. */
  habits?: readonly ModelHabit[];
  error?: ModelError;
}

/** Failures that say the model can't be used as configured, as opposed to a bad moment or a bad request. */
const DOWN_KINDS = new Set<ModelErrorKind>(["not_configured", "auth", "unknown_model", "unreachable", "timeout", "server_error", "tools_unsupported", "bad_output"]);

export function healthOf(outcome: CallOutcome | undefined): ModelHealth {
  if (outcome === undefined) return "ok";
  if (!outcome.ok) return outcome.error !== undefined && DOWN_KINDS.has(outcome.error.kind) ? "down" : "degraded";
  return outcome.retried || outcome.repaired || outcome.textProtocol || (outcome.habits?.length ?? 0) > 0 ? "degraded" : "ok";
}

/** For /status: what Argus has had to undo in a role's replies, in plain words. */
export function habitsNote(habits: ReadonlySet<ModelHabit>): string {
  return `its replies needed fixing: ${[...habits].map((h) => HABIT_LABELS[h]).join("; ")}`;
}

export class RoleHealth {
  private readonly last = new Map<ModelRole, CallOutcome>();
  /** Habits seen since start: a habit is the model's, so one clean call later does not make it go away. */
  private readonly habits = new Map<ModelRole, Set<ModelHabit>>();

  constructor(private readonly configured: (role: ModelRole) => boolean) {}

  record(role: ModelRole, outcome: CallOutcome): void {
    // A cancel says nothing about the model.
    if (outcome.error?.kind === "cancelled") return;
    this.last.set(role, outcome);
    for (const habit of outcome.habits ?? []) {
      const seen = this.habits.get(role) ?? new Set<ModelHabit>();
      seen.add(habit);
      this.habits.set(role, seen);
    }
  }

  snapshot(): Partial<Record<ModelRole, ModelHealth>> {
    const roles = MODEL_ROLES.filter((role) => REQUIRED_ROLES.includes(role) || this.configured(role));
    return Object.fromEntries(roles.map((role) => [role, this.configured(role) ? this.healthOf(role) : "down"]));
  }

  /** Why a role is degraded when the reason is its model's habits; empty when no role has any. */
  notes(): Partial<Record<ModelRole, string>> {
    return Object.fromEntries([...this.habits].filter(([role]) => this.configured(role)).map(([role, habits]) => [role, habitsNote(habits)]));
  }

  private healthOf(role: ModelRole): ModelHealth {
    const health = healthOf(this.last.get(role));
    return health === "ok" && (this.habits.get(role)?.size ?? 0) > 0 ? "degraded" : health;
  }
}
