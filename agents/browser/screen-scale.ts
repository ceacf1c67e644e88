/**
 * The model sees the screen downscaled (long edge ≤ the configured edge); its
 * coordinates are in the pixels of that picture and come back to the page's
 * CSS pixels here. Device pixels never enter: the screenshot is resized from
 * whatever scale the page renders at (HiDPI) to exactly this size. Pure.
 */
import type { ComputerAction } from "@/lib/engines/computer/computer-actions";
import { fitWithin } from "@/lib/engines/llm/images";
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

function pointsOf(a: ComputerAction): { x: number; y: number }[] {
  switch (a.type) {
    case "click":
    case "double_click":
    case "move":
    case "scroll":
      return [a];
    case "drag":
      return a.path;
    default:
      return [];
  }
}

/**
 * Why the action points off the screenshot the model was shown, in its own pixels (a model
 * told "x=6400" about its "x=5000" could not correct itself); null when every point is on it.
 */
export function offScreen(a: ComputerAction, screen: Size): string | null {
  const [w, h] = screen;
  for (const p of pointsOf(a)) {
    if (p.x < 0 || p.x >= w) return `x=${p.x} is outside the ${w}×${h} screenshot (x runs from 0 to ${w - 1}).`;
    if (p.y < 0 || p.y >= h) return `y=${p.y} is outside the ${w}×${h} screenshot (y runs from 0 to ${h - 1}).`;
  }
  return null;
}

export function regionOffScreen(r: Region, screen: Size): string | null {
  const [w, h] = screen;
  if (r.width < 1 || r.height < 1) return "The region must be at least 1×1 pixels.";
  if (r.x < 0 || r.y < 0 || r.x + r.width > w || r.y + r.height > h) return `The region ${r.x},${r.y} ${r.width}×${r.height} does not fit in the ${w}×${h} screenshot.`;
  return null;
}
