import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { statusText, type StatusTone } from "./status-text";

export interface StatusLineProps {
  state: RunStateWire | null;
  connected: boolean;
}

const DOT: Record<StatusTone, string> = {
  idle: "bg-muted-foreground/60",
  busy: "bg-primary motion-safe:animate-pulse",
  waiting: "bg-warning",
  ended: "bg-muted-foreground/60",
  offline: "bg-destructive motion-safe:animate-pulse",
};

/** One line of run progress ("Planner is working · turn 2 of 10 · 1.2k tokens"), announced politely. */
export function StatusLine({ state, connected }: StatusLineProps) {
  const { text, tone } = statusText(state, connected);
  return (
    <div
      data-testid="status-line"
      data-tone={tone}
      role="status"
      className="flex h-9 shrink-0 items-center gap-2 border-b px-4 text-xs text-muted-foreground"
    >
      {/* The dot only decorates; the words carry the state. */}
      <span aria-hidden="true" className={`inline-block h-2 w-2 shrink-0 rounded-full ${DOT[tone]}`} />
      <span>{text}</span>
    </div>
  );
}
