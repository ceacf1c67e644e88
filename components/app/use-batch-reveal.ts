"use client";

import { useEffect } from "react";
import type { PreviewPane } from "@/components/preview/use-preview-pane";
import { useStartedBatch } from "@/lib/client/use-started-batch";
import { WIDE_QUERY } from "@/lib/client/use-media-query";
import type { Panel } from "./app-layout";

/**
 * A batch that starts comes into sight wherever the person is: the Code tab (where its panel
 * is) comes forward, and at phone width, where the preview is a closed drawer, the drawer opens
 * on it. Returns the started batch, for the panel to scroll to once it shows it.
 */
export function useBatchReveal(sessionId: string | null, selectTab: PreviewPane["select"], openPanel: (panel: Panel) => void): string | null {
  const started = useStartedBatch(sessionId);
  useEffect(() => {
    if (!started) return;
    selectTab("code");
    if (!window.matchMedia(WIDE_QUERY).matches) openPanel("preview");
  }, [started, selectTab, openPanel]);
  return started;
}
