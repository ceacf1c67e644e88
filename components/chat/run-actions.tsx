"use client";

import { Play, RefreshCw } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export interface RunActionsProps {
  /** Offer Regenerate: answer the person's latest message again. */
  canRegenerate: boolean;
  /** Offer Continue: go on with the run that was stopped. */
  canContinue: boolean;
  /** Each may return a promise: the buttons stay disabled until it settles, so a double click acts once. */
  onRegenerate(): Promise<unknown> | void;
  onContinue(): Promise<unknown> | void;
}

/** Under the last answer: Continue a stopped run, or Regenerate the answer. */
export function RunActions({ canRegenerate, canContinue, onRegenerate, onContinue }: RunActionsProps) {
  const [busy, setBusy] = useState(false);
  if (!canRegenerate && !canContinue) return null;
  const act = (fn: () => Promise<unknown> | void) => () => {
    const result = fn();
    if (result instanceof Promise) {
      setBusy(true);
      result.finally(() => setBusy(false)).catch(() => {});
    }
  };
  return (
    <div data-testid="run-actions" className="flex gap-2">
      {canContinue && (
        <Button variant="outline" size="sm" onClick={act(onContinue)} disabled={busy}>
          <Play aria-hidden="true" />
          Continue
        </Button>
      )}
      {canRegenerate && (
        <Button variant="ghost" size="sm" onClick={act(onRegenerate)} disabled={busy}>
          <RefreshCw aria-hidden="true" />
          Regenerate
        </Button>
      )}
    </div>
  );
}
