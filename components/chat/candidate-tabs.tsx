"use client";

import { useRef, type KeyboardEvent } from "react";

export interface CandidateTabsProps {
  /** Tab labels: each candidate tool's function name and its detection count. */
  tabs: readonly { name: string; count: number }[];
  selected: number;
  onSelect(index: number): void;
  /** id of the panel the tabs control. */
  panelId: string;
  /** Prefix for the tab ids (unique per card). */
  idBase: string;
}

/** WAI-ARIA tabs (arrow keys, Home/End, roving tabindex) for switching between candidate tools. */
export function CandidateTabs({ tabs, selected, onSelect, panelId, idBase }: CandidateTabsProps) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (to: number) => {
    const i = (to + tabs.length) % tabs.length;
    onSelect(i);
    refs.current[i]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(selected + 1),
      ArrowLeft: () => move(selected - 1),
      Home: () => move(0),
      End: () => move(tabs.length - 1),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };
  return (
    <div role="tablist" aria-label="Candidate tools" onKeyDown={onKeyDown} className="flex flex-wrap gap-1 border-b border-zinc-200 dark:border-zinc-700">
      {tabs.map((tab, i) => {
        const active = i === selected;
        return (
          <button
            key={`${i}:${tab.name}`}
            ref={(el) => {
              refs.current[i] = el;
            }}
            id={`${idBase}-tab-${i}`}
            type="button"
            role="tab"
            aria-selected={active}
            aria-controls={panelId}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(i)}
            className={`-mb-px rounded-t-md border px-3 py-1 font-mono text-xs focus-visible:outline-2 focus-visible:outline-blue-600 ${
              active
                ? "border-zinc-200 border-b-white bg-white font-semibold text-zinc-900 dark:border-zinc-700 dark:border-b-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
                : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
            }`}
          >
            {tab.name} <span className="font-sans">({tab.count})</span>
          </button>
        );
      })}
    </div>
  );
}
