import type { VisionToolsHealth } from "@/lib/foundation/protocol/health";
import { visionHealthRows } from "@/lib/client/vision-health";

/** The neural vision tools on the status page: engine state, memory, queue, and each model. */
export function VisionHealthList({ vision }: { vision: VisionToolsHealth | undefined }) {
  const rows = visionHealthRows(vision);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="vision-health">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="text-muted-foreground">{row.label}</dt>
          <dd data-testid={`vision-${row.key}`} className={row.problem ? "text-destructive" : undefined}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
