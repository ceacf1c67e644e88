"use client";

import { ImagePlus, Sparkles } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** What a new, empty chat shows: what Argus is for, and a sample to try in one click. */
export function EmptyChat({ onTryExample }: { onTryExample: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const tryIt = () => {
    setBusy(true);
    onTryExample().finally(() => setBusy(false));
  };
  return (
    <div className="flex h-full flex-col items-center justify-center gap-4 p-8 text-center">
      <span aria-hidden="true" className="inline-flex size-12 items-center justify-center rounded-xl bg-primary-soft text-primary-soft-foreground">
        <ImagePlus className="size-6" />
      </span>
      <div className="max-w-md space-y-1">
        <h2 className="text-lg font-semibold tracking-tight">Ask a vision question</h2>
        <p className="text-sm text-muted-foreground">
          Drop in images or a short video and ask — “how many coins are on the table?”, “read the serial number”.
        </p>
      </div>
      <Button variant="outline" onClick={tryIt} disabled={busy} data-testid="try-example">
        <Sparkles aria-hidden="true" />
        {busy ? "Loading the example…" : "Try an example"}
      </Button>
      <p className="text-xs text-muted-foreground">Attaches a photo of coins and asks how many there are.</p>
    </div>
  );
}
