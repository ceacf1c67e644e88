import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { ObservationView } from "./observation-view";

export interface ObservationMessageProps {
  /** An `observation` no step claimed, or a `final_observation` (a run's closing output). */
  message: StreamedMessage;
}

/** Kernel or tool output shown on its own, labelled in words. */
export function ObservationMessage({ message }: ObservationMessageProps) {
  const label = message.role === "final_observation" ? "Result" : "Output";
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full rounded-lg border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900">
      <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{label}</h3>
      <ObservationView text={message.content} media={message.media} />
    </article>
  );
}
