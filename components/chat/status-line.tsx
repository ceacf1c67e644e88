import type { RunStateWire } from "@/lib/protocol/state-wire";
import { statusText, type StatusTone } from "./status-text";

export interface StatusLineProps {
  state: RunStateWire | null;
  connected: boolean;
}

const DOT: Record<StatusTone, string> = {
  idle: "bg-zinc-400",
  busy: "bg-blue-500 motion-safe:animate-pulse",
  waiting: "bg-amber-500",
  ended: "bg-zinc-400",
  offline: "bg-red-500 motion-safe:animate-pulse",
};

/** One line of run progress ("Planner is working · turn 2 of 10 · 1.2k tokens"), announced politely. */
export function StatusLine({ state, connected }: StatusLineProps) {
  const { text, tone } = statusText(state, connected);
  return (
    <div
      data-testid="status-line"
      data-tone={tone}
      role="status"
      className="flex items-center gap-2 px-4 py-1 text-xs text-zinc-600 dark:text-zinc-400"
    >
      {/* The dot only decorates; the words carry the state. */}
      <span aria-hidden="true" className={`inline-block h-2 w-2 shrink-0 rounded-full ${DOT[tone]}`} />
      <span>{text}</span>
    </div>
  );
}
