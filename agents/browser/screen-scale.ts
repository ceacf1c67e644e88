/**
 * The model sees the screen downscaled (long edge ≤ the configured edge); its
 * coordinates are in the pixels of that picture and come back to the page's
 * CSS pixels here. Device pixels never enter: the screenshot is resized from
 * whatever scale the page renders at (HiDPI) to exactly this size. Pure.
 */
import type { ComputerAction } from "@/lib/computer/computer-actions";
import { fitWithin } from "@/lib/llm/images";
import type { Region } from "./engine";

export type Size = readonly [number, number];

/** The size of the picture the model is shown for a `viewport` (CSS px) screen. */
export function modelScreen(viewport: Size, maxEdge: number): Size {
  const fitted = fitWithin(viewport[0], viewport[1], maxEdge);
  return [fitted.width, fitted.height];
}

export interface Scale {
  /** CSS pixels per model pixel, horizontally and vertically. */
  x: number;
  y: number;
}

export function scaleBetween(model: Size, viewport: Size): Scale {
  return { x: viewport[0] / model[0], y: viewport[1] / model[1] };
}

const round = (n: number) => Math.round(n);

export function toPage(p: { x: number; y: number }, s: Scale): { x: number; y: number } {
  return { x: round(p.x * s.x), y: round(p.y * s.y) };
}

export function regionToPage(r: Region, s: Scale): Region {
  return { x: round(r.x * s.x), y: round(r.y * s.y), width: Math.max(1, round(r.width * s.x)), height: Math.max(1, round(r.height * s.y)) };
}

/** The action with its coordinates (and scroll distances) in CSS pixels. */
export function actionToPage(a: ComputerAction, s: Scale): ComputerAction {
  switch (a.type) {
    case "click":
    case "double_click":
    case "move":
      return { ...a, ...toPage(a, s) };
    case "scroll":
      return { ...a, ...toPage(a, s), scroll_x: round(a.scroll_x * s.x), scroll_y: round(a.scroll_y * s.y) };
    case "drag":
      return { ...a, path: a.path.map((p) => toPage(p, s)) };
    default:
      return a;
  }
}
