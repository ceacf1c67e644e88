"use client";

import { useMemo, useState, type ReactNode } from "react";
import { Tabs, TabsContent } from "@/components/ui/tabs";
import type { UploadView } from "@/lib/protocol/files";
import { finalCode, resultImage, sessionImages } from "@/lib/client/preview-data";
import type { Polygon } from "@/lib/client/polygons";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { CodeTab } from "./code-tab";
import { MediaTab } from "./media-tab";
import { NotebookTab } from "./notebook-tab";
import { PREVIEW_TABS, PreviewTabList, type PreviewTab } from "./preview-tab-list";
import { ResultTab } from "./result-tab";

export type { PreviewTab } from "./preview-tab-list";

export interface PreviewSectionProps {
  sessionId: string | null;
  messages: StreamedMessage[];
  uploads: UploadView[];
  /** Regions drawn on the session's images; the page appends them to the next message and clears them. */
  polygons: Polygon[];
  onPolygonsChange: (polygons: Polygon[]) => void;
  /** Bump to refetch the notebook (e.g. after each observation). */
  notebookVersion: number;
  /** Optional control of the open tab (e.g. switch to Result when a run finishes). */
  tab?: PreviewTab;
  onTabChange?: (tab: PreviewTab) => void;
}

/** The right-hand pane: the session's media, the final code, the result picture and the notebook. */
export function PreviewSection(props: PreviewSectionProps) {
  const { sessionId, messages, uploads, polygons, onPolygonsChange, notebookVersion } = props;
  const [ownTab, setOwnTab] = useState<PreviewTab>("media");
  const active = props.tab ?? ownTab;
  const select = (tab: PreviewTab) => {
    setOwnTab(tab);
    props.onTabChange?.(tab);
  };

  const media = useMemo(() => sessionImages(uploads, messages), [uploads, messages]);
  const code = useMemo(() => finalCode(messages), [messages]);
  const result = useMemo(() => resultImage(messages), [messages]);

  const panels: Record<PreviewTab, ReactNode> = {
    media: <MediaTab items={media} polygons={polygons} onPolygonsChange={onPolygonsChange} />,
    code: <CodeTab final={code} />,
    result: <ResultTab result={result} />,
    notebook: <NotebookTab sessionId={sessionId} notebookVersion={notebookVersion} active={active === "notebook"} />,
  };

  return (
    <Tabs asChild value={active} onValueChange={(v) => select(v as PreviewTab)}>
      <section data-testid="preview-section" aria-label="Preview" className="h-full min-h-0 bg-background">
        <PreviewTabList active={active} marked={{ code: code !== null, result: result !== null }} />
        {PREVIEW_TABS.map((tab) => (
          // Panels stay mounted so the Media tab keeps its zoom and a half-drawn region.
          <TabsContent key={tab} value={tab} keepMounted className="min-h-0 flex-1 overflow-auto p-pane">
            {panels[tab]}
          </TabsContent>
        ))}
      </section>
    </Tabs>
  );
}
