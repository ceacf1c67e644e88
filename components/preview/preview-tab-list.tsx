"use client";

import { useRef, type KeyboardEvent } from "react";

export const PREVIEW_TABS = ["media", "code", "result", "notebook"] as const;
export type PreviewTab = (typeof PREVIEW_TABS)[number];

const LABELS: Record<PreviewTab, string> = { media: "Media", code: "Code", result: "Result", notebook: "Notebook" };

export const tabId = (prefix: string, tab: PreviewTab) => `${prefix}-tab-${tab}`;
export const panelId = (prefix: string, tab: PreviewTab) => `${prefix}-panel-${tab}`;

interface PreviewTabListProps {
  idPrefix: string;
  active: PreviewTab;
  onSelect: (tab: PreviewTab) => void;
  /** Tabs that have something new or ready get a dot. */
  marked?: Partial<Record<PreviewTab, boolean>>;
}

/**
 * WAI-ARIA tabs with automatic activation: one tab stop (roving tabindex);
 * ←/→ move and select, Home/End jump to the ends.
 */
export function PreviewTabList({ idPrefix, active, onSelect, marked = {} }: PreviewTabListProps) {
  const refs = useRef<Partial<Record<PreviewTab, HTMLButtonElement | null>>>({});

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = PREVIEW_TABS.indexOf(active);
    const n = PREVIEW_TABS.length;
    const next =
      e.key === "ArrowRight" ? PREVIEW_TABS[(i + 1) % n]
      : e.key === "ArrowLeft" ? PREVIEW_TABS[(i - 1 + n) % n]
      : e.key === "Home" ? PREVIEW_TABS[0]
      : e.key === "End" ? PREVIEW_TABS[n - 1]
      : undefined;
    if (!next) return;
    e.preventDefault();
    onSelect(next);
    refs.current[next]?.focus();
  };

  return (
    <div role="tablist" aria-label="Preview" onKeyDown={onKeyDown} className="flex gap-1 border-b border-zinc-200 px-2 dark:border-zinc-800">
      {PREVIEW_TABS.map((tab) => {
        const selected = tab === active;
        return (
          <button
            key={tab}
            ref={(el) => {
              refs.current[tab] = el;
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, tab)}
            aria-selected={selected}
            aria-controls={panelId(idPrefix, tab)}
            tabIndex={selected ? 0 : -1}
            data-testid={`tab-${tab}`}
            onClick={() => onSelect(tab)}
            className={`relative -mb-px border-b-2 px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-blue-500 ${
              selected
                ? "border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300"
                : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            }`}
          >
            {LABELS[tab]}
            {marked[tab] && !selected && (
              <>
                <span aria-hidden="true" className="absolute right-1 top-1.5 h-1.5 w-1.5 rounded-full bg-blue-500" />
                <span className="sr-only"> (ready)</span>
              </>
            )}
          </button>
        );
      })}
    </div>
  );
}
