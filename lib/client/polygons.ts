/**
 * Regions the person draws on an image, in the image's intrinsic pixel
 * coordinates (what the planner's `load_image` sees), plus the small amount of
 * viewport math the zoomable viewer needs. Pure: no DOM, no React.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Polygon {
  id: number;
  name: string;
  points: Point[];
  /** The image the region was drawn on (its session file name), when known. */
  imageName?: string;
  /** That image's URL, so the viewer draws the region only over its own image. */
  imageUrl?: string;
}

/** The part of a DOMRect the mapping needs (a DOMRect satisfies it). */
export interface RectLike {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A pointer position → intrinsic pixel coordinates of the image shown in
 * `rect`. `rect` is the element's bounding box *after* CSS transforms, so this
 * stays right while zoomed and panned. Rounded to whole pixels and clamped to
 * the image; null when the element has no size yet.
 */
export function toImageCoords(
  clientX: number,
  clientY: number,
  rect: RectLike,
  naturalW: number,
  naturalH: number,
): Point | null {
  if (!(rect.width > 0 && rect.height > 0 && naturalW > 0 && naturalH > 0)) return null;
  const x = ((clientX - rect.left) / rect.width) * naturalW;
  const y = ((clientY - rect.top) / rect.height) * naturalH;
  return { x: clamp(Math.round(x), 0, naturalW), y: clamp(Math.round(y), 0, naturalH) };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function near(a: Point, b: Point, tolerance: number): boolean {
  return Math.abs(a.x - b.x) <= tolerance && Math.abs(a.y - b.y) <= tolerance;
}

/**
 * The vertices of a finished shape. A double-click also lands two clicks on
 * (almost) the same spot, and people often finish by clicking the first point
 * again: repeated vertices and a last vertex equal to the first are dropped
 * (the polygon closes implicitly). `tolerance` is in image pixels.
 */
export function closePolygon(points: readonly Point[], tolerance = 1): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || !near(last, p, tolerance)) out.push({ x: p.x, y: p.y });
  }
  while (out.length > 1 && near(out[0]!, out[out.length - 1]!, tolerance)) out.pop();
  return out;
}

/** Area by the shoelace formula (absolute, in square pixels). */
export function polygonArea(points: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return Math.abs(twice) / 2;
}

/** At least three vertices enclosing some area (not all on one line). */
export function isValidPolygon(points: readonly Point[], minArea = 1): boolean {
  return points.length >= 3 && polygonArea(points) >= minArea;
}

/** Where a region's label goes: the mean of its vertices. */
export function polygonCentroid(points: readonly Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  const sum = points.reduce((s, p) => ({ x: s.x + p.x, y: s.y + p.y }), { x: 0, y: 0 });
  return { x: sum.x / points.length, y: sum.y / points.length };
}

/** The SVG `points` attribute for a list of vertices. */
export function svgPoints(points: readonly Point[]): string {
  return points.map((p) => `${p.x},${p.y}`).join(" ");
}

/** The next free id. */
export function nextPolygonId(polygons: readonly Polygon[]): number {
  return polygons.reduce((max, p) => Math.max(max, p.id), 0) + 1;
}

/** The name a new region gets unless the person types one: "region N". */
export function defaultRegionName(polygons: readonly Polygon[]): string {
  const taken = new Set(polygons.map((p) => p.name));
  let n = polygons.length + 1;
  while (taken.has(`region ${n}`)) n++;
  return `region ${n}`;
}

function regionText(p: Polygon, index: number): string {
  const name = p.name.trim() || `region ${index + 1}`;
  const coords = p.points.map((pt) => `[${Math.round(pt.x)}, ${Math.round(pt.y)}]`).join(", ");
  return `${JSON.stringify(name)}: [${coords}]`;
}

/**
 * The line appended to the person's next message so the planner gets the
 * regions, e.g. `Regions drawn on coins.png (pixel coordinates): "left tray":
 * [[10, 20], [200, 20], [200, 180]]`. Empty when there are no regions.
 */
export function regionsToText(polygons: readonly Polygon[], imageName: string): string {
  if (polygons.length === 0) return "";
  return `Regions drawn on ${imageName} (pixel coordinates): ${polygons.map(regionText).join("; ")}`;
}

/**
 * Every region, one line per image it was drawn on (in first-drawn order).
 * Regions without an image name use `fallbackName`.
 */
export function regionsMessage(polygons: readonly Polygon[], fallbackName = "the image"): string {
  const groups = new Map<string, Polygon[]>();
  for (const p of polygons) {
    const key = p.imageName ?? fallbackName;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups].map(([name, list]) => regionsToText(list, name)).join("\n");
}

/* ---- viewport: zoom and pan of the displayed image ---- */

/** A CSS `translate(x, y) scale(scale)` with transform-origin 0 0. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
export const IDENTITY_VIEW: View = { scale: 1, x: 0, y: 0 };

/**
 * Zooms to `nextScale` keeping the point `anchor` (in the container's
 * coordinates) fixed under the pointer; back at scale 1 the view resets.
 */
export function zoomAround(view: View, nextScale: number, anchor: Point): View {
  const scale = clamp(nextScale, MIN_SCALE, MAX_SCALE);
  if (scale === MIN_SCALE) return IDENTITY_VIEW;
  const k = scale / view.scale;
  return { scale, x: anchor.x - (anchor.x - view.x) * k, y: anchor.y - (anchor.y - view.y) * k };
}

/**
 * Keeps a zoomed image covering its container of size `w`×`h` (content laid
 * out at `w`×`h` at scale 1): no panning past an edge into empty space.
 */
export function clampPan(view: View, w: number, h: number): View {
  if (view.scale <= MIN_SCALE) return IDENTITY_VIEW;
  const minX = w - w * view.scale;
  const minY = h - h * view.scale;
  return { scale: view.scale, x: clamp(view.x, minX, 0), y: clamp(view.y, minY, 0) };
}
