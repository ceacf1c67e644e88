"use client";

import { PenLine, Undo2, X, Check } from "lucide-react";
import { Button } from "@/components/ui/button";

interface RegionToolbarProps {
  drawMode: boolean;
  points: number;
  onToggle: () => void;
  onClose: () => void;
  onUndo: () => void;
  onCancel: () => void;
}

/** Draw-regions mode: on/off, and while drawing, close / undo / cancel the current shape. */
export function RegionToolbar({ drawMode, points, onToggle, onClose, onUndo, onCancel }: RegionToolbarProps) {
  return (
    <div role="group" aria-label="Draw regions" className="flex flex-wrap items-center gap-1">
      <Button variant={drawMode ? "default" : "outline"} size="xs" aria-pressed={drawMode} onClick={onToggle}>
        <PenLine aria-hidden="true" />
        Draw regions
      </Button>
      {drawMode && (
        <>
          <Button variant="outline" size="xs" onClick={onClose} disabled={points < 3}>
            <Check aria-hidden="true" />
            Close shape
          </Button>
          <Button variant="outline" size="xs" onClick={onUndo} disabled={points === 0}>
            <Undo2 aria-hidden="true" />
            Undo point
          </Button>
          <Button variant="outline" size="xs" onClick={onCancel} disabled={points === 0}>
            <X aria-hidden="true" />
            Cancel shape
          </Button>
          <span className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
            {points === 0 ? "Click the picture to add corners" : `${points} corner${points === 1 ? "" : "s"}`}
          </span>
        </>
      )}
    </div>
  );
}
