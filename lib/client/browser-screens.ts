/**
 * The Browser tab's data: the session's browser screenshots in order, where
 * the pointer was, and stepping through them. Pure.
 */
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { isSafeImageUrl } from "./links";

export interface BrowserScreen {
  /** The observation's seq: a stable id for the screen. */
  seq: number;
  /** The screenshot's file URL. */
  image: string;
  /** The page's URL and title when the screenshot was taken. */
  url: string;
  title: string;
  /** The action that led here (its summary), '' for the first screenshot. */
  action: string;
  /** Why that action failed or was refused, '' when it worked. */
  error: string;
  /** Where that action pointed, in the viewport's CSS pixels; null when it did not point. */
  pointer: { x: number; y: number } | null;
  viewport: [number, number];
}

/** Whether the session has anything of the browsing agent (the Browser tab shows only then). */
export function hasBrowserActivity(messages: readonly StreamedMessage[]): boolean {
  return messages.some((m) => m.item.type === "browser_step" || m.item.type === "browser_screen");
}

/**
 * Every browser observation that carries a screenshot, oldest first. The
 * pointer is the observation's own; when it has none, that of the browser
 * action before it in the same run (the action that led to this screen).
 */
export function browserScreens(messages: readonly StreamedMessage[]): BrowserScreen[] {
  const out: BrowserScreen[] = [];
  const lastPointer = new Map<string | null, { x: number; y: number } | null>();
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  for (const m of sorted) {
    const item = m.item;
    if (item.type === "browser_step") {
      lastPointer.set(m.runId, item.action.pointer);
      continue;
    }
    if (item.type !== "browser_screen") continue;
    const actionPointer = lastPointer.get(m.runId) ?? null;
    lastPointer.delete(m.runId);
    const image = item.media.find(isSafeImageUrl);
    if (!image) continue;
    const wire = item.screen;
    out.push({ seq: m.seq, image, url: wire.url, title: wire.title, action: wire.action, error: wire.error, pointer: wire.pointer ?? actionPointer, viewport: wire.viewport });
  }
  return out;
}

/**
 * Which screen to show: the one the person picked (by seq), or the latest
 * when they follow the stream (`picked` null) or their pick is gone.
 */
export function shownScreenIndex(screens: readonly BrowserScreen[], picked: number | null): number {
  if (screens.length === 0) return -1;
  if (picked !== null) {
    const i = screens.findIndex((s) => s.seq === picked);
    if (i !== -1) return i;
  }
  return screens.length - 1;
}

/**
 * A pointer as percentages of the screenshot, so a marker absolutely
 * positioned over the image lands right whatever size the image has (the
 * screenshot may be at device pixels, the display at any size): the pointer
 * is in viewport CSS pixels and the screenshot shows the whole viewport.
 * Null when there is no pointer, the viewport is unusable, or the point is
 * off the screen.
 */
export function pointerPercent(pointer: { x: number; y: number } | null, viewport: readonly [number, number]): { left: number; top: number } | null {
  if (!pointer) return null;
  const [w, h] = viewport;
  if (!(w > 0) || !(h > 0) || !Number.isFinite(w) || !Number.isFinite(h)) return null;
  if (!Number.isFinite(pointer.x) || !Number.isFinite(pointer.y)) return null;
  if (pointer.x < 0 || pointer.y < 0 || pointer.x > w || pointer.y > h) return null;
  return { left: (pointer.x / w) * 100, top: (pointer.y / h) * 100 };
}

/** The host of a URL for short labels ("127.0.0.1:8000"), or the text itself when it does not parse. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? `${u.host}${u.pathname === "/" ? "" : u.pathname}` : url;
  } catch {
    return url;
  }
}

/**
 * A failed step's error as the person reads it. The server words it for the
 * model; a refusal (which the person gave themselves) is said to them plainly,
 * anything else is already plain and is shown as it came, after "Didn't work".
 */
export function browserErrorWords(error: string): string {
  const e = error.trim();
  if (!e) return "";
  if (/^the person refused this step\b/i.test(e)) return "You refused this step, so the browser did not do it.";
  return `Didn't work: ${e}`;
}
