"use client";

import { useEffect, useMemo, type ReactNode } from "react";
import { Tabs, TabsContent } from "@/components/ui/tabs";
import type { UploadView } from "@/lib/foundation/protocol/files";
import { browserScreens, hasBrowserActivity } from "@/lib/client/browser-screens";
import { finalCode, resultImage, sessionImages } from "@/lib/client/preview-data";
import type { Polygon } from "@/lib/client/polygons";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { BrowserPolicyChecks } from "./browser-policy-toggle";
import { BrowserTab } from "./browser-tab";
import { CodeTab } from "./code-tab";
import { BatchPanel } from "@/components/batch/batch-panel";
import { functionName } from "@/lib/features/functions/function-name";
import { MediaTab } from "./media-tab";
import { NotebookTab } from "./notebook-tab";
import { PREVIEW_TABS, PreviewTabList, type PreviewTab } from "./preview-tab-list";
import { ResultTab } from "./result-tab";
import { chosenFunctionName, type PreviewPane } from "./use-preview-pane";

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
  /** What the person chose in the pane (its tab, its function), held by the page so it survives the pane being mounted again. */
  pane: PreviewPane;
  /** The batch the page saw start: the batch panel scrolls to it once it shows it. */
  startedBatch?: string | null;
  /** The session's browser policy setting (default "ask") and how to change it. */
  browserPolicy?: BrowserPolicyChecks;
  onBrowserPolicyChange?: (value: BrowserPolicyChecks) => Promise<boolean>;
}

const noPolicyChange = async () => false;

/**
 * The right-hand pane: the session's media, the browser (in sessions where
 * it worked), the final code, the result picture and the notebook.
 */
export function PreviewSection(props: PreviewSectionProps) {
  const { sessionId, messages, uploads, polygons, onPolygonsChange, notebookVersion } = props;
  const { pane } = props;

  const browsing = useMemo(() => hasBrowserActivity(messages), [messages]);
  const screens = useMemo(() => browserScreens(messages), [messages]);
  const tabs = useMemo(() => PREVIEW_TABS.filter((t) => t !== "browser" || browsing), [browsing]);

  // The browser starting to work brings its tab forward, unless the person picked a tab.
  const { showBrowser } = pane;
  useEffect(() => {
    if (browsing) showBrowser();
  }, [browsing, showBrowser]);
  const active = pane.tab === "browser" && !browsing ? "media" : pane.tab;

  const media = useMemo(() => sessionImages(uploads, messages), [uploads, messages]);
  const code = useMemo(() => finalCode(messages), [messages]);
  // A coder run that ends with new code brings the newest function back into view.
  const chosenFunction = chosenFunctionName(pane, code?.code ?? null);
  const choose = (name: string) => pane.chooseFunction(name, code?.code ?? null);
  const result = useMemo(() => resultImage(messages), [messages]);
  const batchFunction = chosenFunction ?? (code ? functionName(code.code, code.test ?? "") : null);

  const panels: Record<PreviewTab, ReactNode> = {
    media: <MediaTab items={media} polygons={polygons} onPolygonsChange={onPolygonsChange} />,
    browser: (
      <BrowserTab
        key={sessionId ?? "none"}
        screens={screens}
        policy={props.browserPolicy ?? "ask"}
        onPolicyChange={props.onBrowserPolicyChange ?? noPolicyChange}
        policyDisabled={!sessionId || !props.onBrowserPolicyChange}
      />
    ),
    code: (
      <div className="flex flex-col gap-4">
        {/* The batch sits above the versions and the curl line, where a person looks when one starts. */}
        <CodeTab
          final={code}
          sessionId={sessionId}
          active={active === "code"}
          chosen={chosenFunction}
          onChoose={choose}
          batch={sessionId && <BatchPanel sessionId={sessionId} functionName={batchFunction} uploads={uploads} reveal={props.startedBatch ?? null} />}
        />
      </div>
    ),
    result: <ResultTab result={result} />,
    notebook: <NotebookTab sessionId={sessionId} notebookVersion={notebookVersion} active={active === "notebook"} />,
  };

  return (
    <Tabs asChild value={active} onValueChange={(v) => pane.select(v as PreviewTab)}>
      <section data-testid="preview-section" aria-label="Preview" className="h-full min-h-0 bg-background">
        <PreviewTabList active={active} tabs={tabs} marked={{ browser: screens.length > 0, code: code !== null, result: result !== null }} />
        {tabs.map((tab) => (
          // Panels stay mounted so the Media tab keeps its zoom and a half-drawn region.
          <TabsContent key={tab} value={tab} keepMounted className="min-h-0 flex-1 overflow-auto p-pane">
            {panels[tab]}
          </TabsContent>
        ))}
      </section>
    </Tabs>
  );
}
