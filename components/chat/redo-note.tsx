"use client";

import { History, RotateCcw } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { groupMessages, type Entry } from "@/lib/client/message-parts";
import { useRedo } from "./redo-context";

/**
 * Where a run was continued, a message answered again or edited, or the notebook rebuilt: a
 * quiet line. A Regenerate or Edit keeps what it replaced as an earlier version, shown on request.
 */
export function RedoNote({ message, render }: { message: Entry<"redo">; render: (items: ReturnType<typeof groupMessages>) => React.ReactNode }) {
  const { earlier } = useRedo();
  const [open, setOpen] = useState(false);
  const replaced = earlier.get(message.seq);
  const items = useMemo(() => (open && replaced ? groupMessages(replaced) : []), [open, replaced]);
  return (
    <div data-testid="redo-note" data-kind={message.item.kind} data-seq={message.seq} className="flex flex-col gap-3">
      <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <RotateCcw aria-hidden="true" className="size-3.5" />
        <span>{message.item.text}</span>
        {replaced && replaced.length > 0 && (
          <Button variant="link" size="xs" aria-expanded={open} data-testid="show-earlier-version" onClick={() => setOpen((o) => !o)} className="text-xs">
            <History aria-hidden="true" />
            {open ? "Hide the earlier version" : "Show the earlier version"}
          </Button>
        )}
      </p>
      {open && (
        <section aria-label="Earlier version" data-testid="earlier-version" className="flex flex-col gap-5 rounded-lg border border-dashed p-3 opacity-80">
          {render(items)}
        </section>
      )}
    </div>
  );
}
