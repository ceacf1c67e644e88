"use client";

import { useMemo } from "react";
import { cellOutputView, plainOutputView } from "@/lib/client/message-parts";
import type { CellOutput } from "@/lib/foundation/protocol/cell-output";
import { CollapsibleOutput } from "./collapsible-output";
import { ObservationImages } from "./observation-images";

export interface ObservationViewProps {
  /** A cell's typed output, or the text a command, file operation or run answered. */
  output: CellOutput | string;
  /** Image URLs the cell displayed. */
  media?: readonly string[];
  /** The person stopped the cell: its "error" is the stop itself, shown as such rather than as a failure. */
  stopped?: boolean;
}

const NO_PARTS = { stdout: "", stderr: "", value: "", images: "", error: "" };

/** A cell's result: output, warnings, value, pictures and the error, each labelled in words. */
export function ObservationView({ output, media = [], stopped = false }: ObservationViewProps) {
  const obs = useMemo(() => (typeof output === "string" ? { ...NO_PARTS, other: plainOutputView(output) } : cellOutputView(output)), [output]);
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
