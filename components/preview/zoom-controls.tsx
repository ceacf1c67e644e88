"use client";

import { ZoomIn, ZoomOut } from "lucide-react";
import { Button } from "@/components/ui/button";
import { IconButton } from "@/components/ui/icon-button";
import { MAX_SCALE, MIN_SCALE } from "@/lib/client/polygons";

interface ZoomControlsProps {
  scale: number;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onReset: () => void;
}

/** Zoom out / level (resets) / zoom in. */
export function ZoomControls({ scale, onZoomIn, onZoomOut, onReset }: ZoomControlsProps) {
  const percent = Math.round(scale * 100);
  return (
    <div role="group" aria-label="Zoom" className="flex items-center gap-1">
      <IconButton label="Zoom out" variant="outline" size="icon-xs" onClick={onZoomOut} disabled={scale <= MIN_SCALE}>
        <ZoomOut aria-hidden="true" />
      </IconButton>
      <Button variant="outline" size="xs" className="min-w-12 tabular-nums" onClick={onReset} disabled={scale <= MIN_SCALE} aria-label={`Reset zoom (now ${percent}%)`}>
        {percent}%
      </Button>
      <IconButton label="Zoom in" variant="outline" size="icon-xs" onClick={onZoomIn} disabled={scale >= MAX_SCALE}>
        <ZoomIn aria-hidden="true" />
      </IconButton>
    </div>
  );
}
