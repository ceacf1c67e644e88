/**
 * Input sequences that hold something down (a key chord, a drag): whatever was pressed is let go
 * even when a step fails, so the next action does not find a key or a button still held.
 */
import type { Page } from "playwright-core";
import type { Point } from "./computer-types";

/** Presses the keys in order and lets them go in reverse order. */
export async function pressChord(page: Page, chord: readonly string[]): Promise<void> {
  const down: string[] = [];
  try {
    for (const key of chord) {
      await page.keyboard.down(key);
      down.push(key);
    }
  } finally {
    for (const key of down.reverse()) await page.keyboard.up(key).catch(() => undefined);
  }
}

/** Presses the left button at the first point (there is one: DragPathSchema), moves through the rest, and lets go. */
export async function dragAlong(page: Page, points: readonly Point[]): Promise<void> {
  await page.mouse.move(points[0]!.x, points[0]!.y);
  await page.mouse.down();
  try {
    for (const p of points.slice(1)) await page.mouse.move(p.x, p.y, { steps: 2 });
  } finally {
    await page.mouse.up().catch(() => undefined);
  }
}
