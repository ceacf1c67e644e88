import { Card, CardEyebrow } from "@/components/ui/card";
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
    <Card asChild className="max-w-full">
      <article data-testid={`message-${message.role}`} data-seq={message.seq}>
        <CardEyebrow>{label}</CardEyebrow>
        <ObservationView text={message.content} media={message.media} />
      </article>
    </Card>
  );
}
