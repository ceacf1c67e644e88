"use client";

import type { ReactNode } from "react";

/** The quiet message a tab shows before there is anything in it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="flex h-full min-h-40 items-center justify-center rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
      <p>{children}</p>
    </div>
  );
}
