import type { Health } from "@/lib/foundation/protocol/health";

const LABELS: Record<keyof Omit<Health, "ok" | "models" | "modelNotes">, string> = { db: "Database", jupyter: "Jupyter", model: "Model", isolation: "Kernel sandbox", limits: "Kernel limits", disk: "Disk space" };

export function HealthList({ health }: { health: Health }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="health">
      {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((key) => (
        <div key={key} className="contents">
          <dt className="text-muted-foreground">{LABELS[key]}</dt>
          <dd data-testid={`health-${key}`}>{health[key]}</dd>
        </div>
      ))}
    </dl>
  );
}
