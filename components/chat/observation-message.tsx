import { Card, CardEyebrow } from "@/components/ui/card";
import type { Entry } from "@/lib/client/message-parts";
import { ObservationView } from "./observation-view";

export interface ObservationMessageProps {
  /** An output no step claimed, or a result (a run's closing output). */
  message: Entry<"cell_output" | "output" | "result">;
}

/** Kernel or tool output shown on its own, labelled in words. */
export function ObservationMessage({ message }: ObservationMessageProps) {
  const { item } = message;
  const stopped = item.type === "cell_output" && item.stopped === true;
  const label = item.type === "result" ? "Result" : stopped ? "Output · stopped by you" : "Output";
  return (
    <Card asChild className="max-w-full">
      <article data-testid={`message-${message.role}`} data-seq={message.seq}>
        <CardEyebrow>{label}</CardEyebrow>
        <ObservationView output={item.type === "cell_output" ? item.output : item.text} media={item.type === "result" ? [] : item.media} stopped={stopped} />
      </article>
    </Card>
  );
}
