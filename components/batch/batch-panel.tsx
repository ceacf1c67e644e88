"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { browserProofHeaders } from "@/lib/client/browser-proof";
import { useBatch } from "@/lib/client/use-batch";
import type { UploadView } from "@/lib/foundation/protocol/files";
import { BatchProgressBar } from "./batch-progress";
import { BatchTable } from "./batch-table";
import { RunOnImagesDialog } from "./run-on-images-dialog";

/**
 * Batch runs in the preview pane (issue #15): start one, watch it live, cancel
 * it, read and export its table. The newest batch of the session is shown; it
 * survives a reload because its state is read from the server.
 */
interface BatchPanelProps {
  sessionId: string;
  functionName: string | null;
  uploads: UploadView[];
  /** The batch the page saw start (lib/client/use-started-batch.ts): scrolled to the top of the pane once it shows here. */
  reveal?: string | null;
}

export function BatchPanel({ sessionId, functionName, uploads, reveal = null }: BatchPanelProps) {
  const { state, reload } = useBatch(sessionId);
  const panel = useRef<HTMLElement>(null);
  // The page has brought the Code tab forward (and at phone width opened the drawer, which mounts
  // this panel afresh and reads the batch over HTTP): once the started batch is the one shown,
  // the panel scrolls to the top of the pane. A batch found already there when the page opens
  // stays where it is.
  const shown = state?.batch.id ?? null;
  useEffect(() => {
    if (!reveal || shown !== reveal) return;
    // After the tab switch has rendered (the panel is hidden until then).
    const frame = requestAnimationFrame(() => panel.current?.scrollIntoView({ block: "start" }));
    return () => cancelAnimationFrame(frame);
  }, [reveal, shown]);
  if (!functionName && !state) return null;
  const base = state ? `/api/sessions/${sessionId}/batches/${state.batch.id}` : "";
  const cancel = async () => {
    await fetch(`${base}/cancel`, { method: "POST", credentials: "same-origin", headers: browserProofHeaders() }).catch(() => null);
    reload();
  };
  return (
    <section ref={panel} aria-label="Batch run" className="flex scroll-mt-2 flex-col gap-3 border-t pt-4" data-testid="batch-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{state ? `Batch: ${state.batch.functionName} v${state.batch.functionVersion} on ${state.batch.total} files` : "Batch run"}</h3>
        {functionName && <RunOnImagesDialog sessionId={sessionId} functionName={functionName} uploads={uploads} onStarted={reload} />}
      </div>
      {state && (
        <>
          <BatchProgressBar state={state} />
          <div className="flex flex-wrap gap-2">
            {state.batch.status === "running" && (
              <Button size="xs" variant="destructive" data-testid="batch-cancel" onClick={() => void cancel()}>
                Cancel
              </Button>
            )}
            <Button size="xs" variant="outline" asChild>
              <a href={`${base}/export.csv`} download data-testid="batch-export-csv">
                Export CSV
              </a>
            </Button>
            <Button size="xs" variant="outline" asChild>
              <a href={`${base}/export.json`} download data-testid="batch-export-json">
                Export JSON
              </a>
            </Button>
          </div>
          <BatchTable items={state.items} />
        </>
      )}
    </section>
  );
}
