"use client";

import { Code2, FileImage, Globe, Images, NotebookText } from "lucide-react";
import { TabsList, TabsTrigger } from "@/components/ui/tabs";

/** Every tab, in order; "browser" shows only in sessions where the browser has worked. */
export const PREVIEW_TABS = ["media", "browser", "code", "result", "notebook"] as const;
export type PreviewTab = (typeof PREVIEW_TABS)[number];

const LABELS: Record<PreviewTab, string> = { media: "Media", browser: "Browser", code: "Code", result: "Result", notebook: "Notebook" };
const ICONS = { media: Images, browser: Globe, code: Code2, result: FileImage, notebook: NotebookText } as const;

interface PreviewTabListProps {
  active: PreviewTab;
  /** The tabs to show, in PREVIEW_TABS order; default all. */
  tabs?: readonly PreviewTab[];
  /** Tabs that have something new or ready get a dot. */
  marked?: Partial<Record<PreviewTab, boolean>>;
}

/** The preview's tab row (inside a Tabs): one tab stop, ←/→ move and select, Home/End jump to the ends. */
export function PreviewTabList({ active, tabs = PREVIEW_TABS, marked = {} }: PreviewTabListProps) {
  return (
    <TabsList aria-label="Preview" className="overflow-x-auto px-2">
      {tabs.map((tab) => {
        const Icon = ICONS[tab];
        return (
          <TabsTrigger key={tab} value={tab} data-testid={`tab-${tab}`}>
            <Icon aria-hidden="true" className="size-4" />
            {LABELS[tab]}
            {marked[tab] && tab !== active && (
              <>
                <span aria-hidden="true" className="absolute top-1.5 right-1 size-1.5 rounded-full bg-primary" />
                <span className="sr-only"> (ready)</span>
              </>
            )}
          </TabsTrigger>
        );
      })}
    </TabsList>
  );
}
