"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { ExternalLink } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { MediaItem } from "@/lib/client/preview-data";
import { toImageCoords, type Point, type Polygon } from "@/lib/client/polygons";
import { RegionOverlay } from "./region-overlay";
import { useZoomPan } from "./use-zoom-pan";
import { ZoomControls } from "./zoom-controls";

interface MediaViewerProps {
  /** Remount (key by URL) to show another item: zoom and size are per item. */
  item: MediaItem;
  /** Finished regions on this item. */
  polygons: Polygon[];
  /** The shape being drawn, in image pixels. */
  draft: Point[];
  /** Clicks add points. */
  drawing: boolean;
  onAddPoint: (p: Point) => void;
  /** Finish the shape; `tolerance` (image px) merges the double-click's repeated point. */
  onFinish: (tolerance: number) => void;
  onUndoPoint: () => void;
  onCancelDraft: () => void;
  /** Extra controls shown beside the zoom buttons (the draw toggle). */
  tools?: ReactNode;
}

const PAN_STEP = 48;

/**
 * The selected picture (or video) large, zoomable and pannable, with the
 * regions drawn over it in the image's own pixel coordinates.
 */
export function MediaViewer(props: MediaViewerProps) {
  const { item, polygons, draft, drawing, onAddPoint, onFinish, onUndoPoint, onCancelDraft, tools } = props;
  const zoomable = item.kind === "image";
  const { viewportRef, view, zoomBy, panBy, reset, consumeDrag, pointerHandlers } = useZoomPan(zoomable);
  const mediaRef = useRef<HTMLImageElement & HTMLVideoElement>(null);
  // Intrinsic size, read from the loaded element (what the planner's load_image sees).
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [displayW, setDisplayW] = useState(0);
  const [failed, setFailed] = useState(false);
  const hintId = useId();

  // The displayed width sets how big markers and labels are drawn.
  useEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setDisplayW(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [viewportRef]);

  const unit = natural && displayW > 0 ? natural.w / (displayW * view.scale) : 1;

  const pointAt = (e: MouseEvent) => {
    const el = mediaRef.current;
    if (!el || !natural) return null;
    return toImageCoords(e.clientX, e.clientY, el.getBoundingClientRect(), natural.w, natural.h);
  };

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (consumeDrag() || !drawing) return;
    const p = pointAt(e);
    if (p) onAddPoint(p);
  };

  const onDoubleClick = (e: MouseEvent<HTMLDivElement>) => {
    if (drawing) {
      e.preventDefault();
      return onFinish(3 * unit);
    }
    if (!zoomable) return;
    if (view.scale > 1) return reset();
    const r = e.currentTarget.getBoundingClientRect();
    zoomBy(2, { x: e.clientX - r.left, y: e.clientY - r.top });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return; // keys inside the video controls are theirs
    const zoomed = view.scale > 1;
    const keyActions: Record<string, (() => void) | undefined> = {
      "+": zoomable ? () => zoomBy(1.25) : undefined,
      "=": zoomable ? () => zoomBy(1.25) : undefined,
      "-": zoomable ? () => zoomBy(0.8) : undefined,
      "0": zoomable ? reset : undefined,
      ArrowLeft: zoomed ? () => panBy(PAN_STEP, 0) : undefined,
      ArrowRight: zoomed ? () => panBy(-PAN_STEP, 0) : undefined,
      ArrowUp: zoomed ? () => panBy(0, PAN_STEP) : undefined,
      ArrowDown: zoomed ? () => panBy(0, -PAN_STEP) : undefined,
      Enter: drawing ? () => onFinish(3 * unit) : undefined,
      Escape: drawing && draft.length > 0 ? onCancelDraft : undefined,
      Backspace: drawing && draft.length > 0 ? onUndoPoint : undefined,
    };
    const action = keyActions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  const cursor = drawing ? "crosshair" : zoomable && view.scale > 1 ? "grab" : zoomable ? "zoom-in" : "auto";
  const hint = [
    zoomable ? "Scroll or use + and − to zoom; drag or use the arrow keys to move around a zoomed picture; double-click zooms; 0 resets." : "",
    drawing ? "Click to add corners; double-click or press Enter to close the shape, Backspace removes the last corner, Escape cancels." : "",
    drawing && !zoomable ? "Leave draw mode to use the video controls." : "",
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          {zoomable && <ZoomControls scale={view.scale} onZoomIn={() => zoomBy(1.5)} onZoomOut={() => zoomBy(1 / 1.5)} onReset={reset} />}
          {tools}
        </div>
        <Button asChild variant="link" size="xs">
          <a href={item.url} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden="true" />
            Open original<span className="sr-only"> of {item.name} in a new tab</span>
          </a>
        </Button>
      </div>

      <div className="flex justify-center">
        <div
          ref={viewportRef}
          role="group"
          tabIndex={0}
          aria-label={`${item.name}${drawing ? ", drawing a region" : ""}`}
          aria-describedby={hintId}
          onKeyDown={onKeyDown}
          onClick={onClick}
          onDoubleClick={onDoubleClick}
          {...pointerHandlers}
          style={{ cursor, touchAction: zoomable && view.scale > 1 ? "none" : "auto" }}
          className="focus-ring relative max-w-full overflow-hidden rounded-lg bg-muted select-none"
        >
          <div
            className="relative"
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`, transformOrigin: "0 0" }}
          >
            {item.kind === "video" ? (
              <video
                ref={mediaRef}
                data-testid="media-video"
                src={item.url}
                controls
                preload="metadata"
                aria-label={item.name}
                onLoadedMetadata={(e) => setNatural({ w: e.currentTarget.videoWidth, h: e.currentTarget.videoHeight })}
                onError={() => setFailed(true)}
                className="block h-auto max-h-[60vh] w-auto max-w-full"
              />
            ) : (
              // eslint-disable-next-line @next/next/no-img-element -- a session file of any size, shown at its intrinsic resolution
              <img
                ref={mediaRef}
                data-testid="media-image"
                src={item.url}
                alt={item.name}
                draggable={false}
                onLoad={(e) => {
                  setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight });
                  setDisplayW(e.currentTarget.clientWidth);
                }}
                onError={() => setFailed(true)}
                className="block h-auto max-h-[60vh] w-auto max-w-full"
              />
            )}
            {natural && natural.w > 0 && (
              <RegionOverlay
                naturalW={natural.w}
                naturalH={natural.h}
                polygons={polygons}
                draft={draft}
                unit={unit}
                capture={drawing && item.kind === "video"}
              />
            )}
          </div>
        </div>
      </div>
      {failed && (
        <Alert>{item.name} could not be loaded.</Alert>
      )}
      <p id={hintId} className="text-xs text-muted-foreground">
        {hint}
      </p>
    </div>
  );
}
