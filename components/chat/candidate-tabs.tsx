"use client";

import { TabsList, TabsTrigger } from "@/components/ui/tabs";

export interface CandidateTabsProps {
  /** Tab labels: each candidate tool's function name and its detection count. */
  tabs: readonly { name: string; count: number }[];
}

/** The tab row for switching between candidate tools (inside a Tabs whose values are the indexes). */
export function CandidateTabs({ tabs }: CandidateTabsProps) {
  return (
    <TabsList aria-label="Candidate tools" className="flex-wrap">
      {tabs.map((tab, i) => (
        <TabsTrigger key={`${i}:${tab.name}`} value={String(i)} className="px-2.5 py-1.5 font-mono text-xs">
          {tab.name} <span className="font-sans text-muted-foreground">({tab.count})</span>
        </TabsTrigger>
      ))}
    </TabsList>
  );
}
