"use client";

import { useMemo } from "react";
import { parseObservation } from "@/lib/client/message-parts";
import { CollapsibleOutput } from "./collapsible-output";
import { ObservationImages } from "./observation-images";

export interface ObservationViewProps {
  /** The observation's text (`----- stdout -----` sections). */
  text: string;
  /** Image URLs the cell displayed. */
  media?: readonly string[];
  /** The person stopped the cell: its "error" is the stop itself, shown as such rather than as a failure. */
  stopped?: boolean;
}

/** A cell's result: output, warnings, value, pictures and the error, each labelled in words. */
export function ObservationView({ text, media = [], stopped = false }: ObservationViewProps) {
  const obs = useMemo(() => parseObservation(text), [text]);
  return (
    <div>
      {obs.other && <p className="my-2 text-sm whitespace-pre-wrap break-words text-muted-foreground">{obs.other}</p>}
      {obs.stdout && <CollapsibleOutput label="Output" text={obs.stdout} />}
      {obs.stderr && <CollapsibleOutput label="stderr" text={obs.stderr} tone="warning" />}
      {obs.value && <CollapsibleOutput label="Value" text={obs.value} />}
      {(media.length > 0 || obs.images) && <ObservationImages urls={media} caption={obs.images} />}
      {/* A traceback's cause is at its end, so a long one collapses to its last lines. */}
      {obs.error && <CollapsibleOutput label={stopped ? "Stopped" : "Error"} text={obs.error} tone={stopped ? "warning" : "error"} previewLines={20} keep="end" />}
    </div>
  );
}
