import { CircleStop } from "lucide-react";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";

/**
 * Where the person stopped a run: a quiet line across the transcript, so the
 * stop reads in the conversation (and after a reload), not only in the status line.
 */
export function RunStoppedNotice({ message }: { message: StreamedMessage }) {
  return (
    <article data-testid="run-stopped" data-seq={message.seq} role="note" className="flex items-center gap-3 text-xs text-muted-foreground">
      <span aria-hidden="true" className="h-px flex-1 bg-border" />
      <span className="flex items-center gap-1.5">
        <CircleStop aria-hidden="true" className="size-3.5" />
        You stopped the run here.
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-border" />
    </article>
  );
}
