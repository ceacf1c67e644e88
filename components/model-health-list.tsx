import { MODEL_ROLES as ROLES } from "@/lib/foundation/protocol/agent-cards";
import type { Health } from "@/lib/foundation/protocol/health";

const TONE: Record<NonNullable<Health["models"][keyof Health["models"]]>, string> = {
  ok: "text-foreground",
  degraded: "text-amber-600",
  down: "text-destructive",
};

/** Each role's model as health last saw it (from its last call; nothing is probed). */
export function ModelHealthList({ models, notes = {} }: { models: Health["models"]; notes?: Health["modelNotes"] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="model-health">
      {ROLES.filter((role) => models[role] !== undefined).map((role) => (
        <div key={role} className="contents">
          <dt className="text-muted-foreground">{role}</dt>
          <dd data-testid={`model-health-${role}`} className={TONE[models[role]!]}>
            {models[role]}
            {notes[role] === undefined ? null : <span className="text-muted-foreground" data-testid={`model-note-${role}`}>{` (${notes[role]})`}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
