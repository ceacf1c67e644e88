"use client";

import { useCallback, useEffect, useRef, useState, type PointerEvent, type RefObject } from "react";
import { clampPan, IDENTITY_VIEW, zoomAround, type Point, type View } from "@/lib/client/polygons";

/** Movement (screen px) below which a press is still a click, not a drag. */
const DRAG_THRESHOLD = 4;

export interface ZoomPan {
  viewportRef: RefObject<HTMLDivElement | null>;
  view: View;
  /** Multiplies the scale, around `anchor` (viewport px) or the centre. */
  zoomBy: (factor: number, anchor?: Point) => void;
  panBy: (dx: number, dy: number) => void;
  reset: () => void;
  /** True once after a press that became a drag: the click it ends with must be ignored. */
  consumeDrag: () => boolean;
  pointerHandlers: {
    onPointerDown: (e: PointerEvent<HTMLElement>) => void;
    onPointerMove: (e: PointerEvent<HTMLElement>) => void;
    onPointerUp: (e: PointerEvent<HTMLElement>) => void;
    onPointerCancel: (e: PointerEvent<HTMLElement>) => void;
  };
}

/**
 * Zoom (buttons, keys, mouse wheel around the pointer) and pan (drag while
 * zoomed) of the content of a viewport laid out at the viewport's own size.
 * The transform is `translate(x, y) scale(scale)` with origin 0 0.
 */
export function useZoomPan(enabled: boolean): ZoomPan {
  const viewportRef = useRef<HTMLDivElement | null>(null);
  const [view, setView] = useState<View>(IDENTITY_VIEW);
  // The latest view, for the native wheel listener and pointer handlers.
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  }, [view]);
  const drag = useRef<{ id: number; x: number; y: number; start: View; moved: boolean } | null>(null);
  const dragged = useRef(false);

  const size = () => ({ w: viewportRef.current?.clientWidth ?? 0, h: viewportRef.current?.clientHeight ?? 0 });

  const zoomBy = useCallback((factor: number, anchor?: Point) => {
    setView((v) => {
      const { w, h } = size();
      return clampPan(zoomAround(v, v.scale * factor, anchor ?? { x: w / 2, y: h / 2 }), w, h);
    });
  }, []);

  const panBy = useCallback((dx: number, dy: number) => {
    setView((v) => {
      const { w, h } = size();
      return clampPan({ ...v, x: v.x + dx, y: v.y + dy }, w, h);
    });
  }, []);

  // React's onWheel is passive, so it can't stop the page scrolling: listen natively.
  useEffect(() => {
    const el = viewportRef.current;
    if (!el || !enabled) return;
    const onWheel = (e: WheelEvent) => {
      // Scrolling down over an unzoomed image scrolls the pane as usual.
      if (viewRef.current.scale <= 1 && e.deltaY >= 0) return;
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      zoomBy(Math.exp(-delta * 0.002), { x: e.clientX - r.left, y: e.clientY - r.top });
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [enabled, zoomBy]);

  const endDrag = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    drag.current = null;
    if (d.moved) {
      dragged.current = true;
      if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    }
  };

  return {
    viewportRef,
    view,
    zoomBy,
    panBy,
    reset: useCallback(() => setView(IDENTITY_VIEW), []),
    consumeDrag: () => {
      const was = dragged.current;
      dragged.current = false;
      return was;
    },
    pointerHandlers: {
      onPointerDown: (e) => {
        dragged.current = false;
        if (!enabled || e.button !== 0 || viewRef.current.scale <= 1) return;
        drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, start: viewRef.current, moved: false };
      },
      onPointerMove: (e) => {
        const d = drag.current;
        if (!d || d.id !== e.pointerId) return;
        const dx = e.clientX - d.x;
        const dy = e.clientY - d.y;
        if (!d.moved) {
          if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
          d.moved = true;
          e.currentTarget.setPointerCapture(e.pointerId);
        }
        const { w, h } = size();
        setView(clampPan({ ...d.start, x: d.start.x + dx, y: d.start.y + dy }, w, h));
      },
      onPointerUp: endDrag,
      onPointerCancel: endDrag,
    },
  };
}
