"use client";

import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/** The quiet message a tab shows before there is anything in it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Card tone="muted" padding="md" className="flex h-full min-h-40 items-center justify-center text-center text-sm">
      <p>{children}</p>
    </Card>
  );
}
