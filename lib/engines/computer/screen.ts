/**
 * Coordinates the model gives must land on the screen it was shown: a point
 * outside it is refused in words, never clamped to the edge and clicked. Pure.
 */
import { badAction } from "./errors";

export type Dimensions = readonly [number, number];

export function screenWords([width, height]: Dimensions): string {
  return `${width}×${height}`;
}

/** Throws bad_request:browser unless 0 ≤ x < width and 0 ≤ y < height. */
export function checkPoint(x: number, y: number, dims: Dimensions): void {
  const [width, height] = dims;
  if (x < 0 || x >= width) throw badAction(`x=${x} is outside the ${screenWords(dims)} screen (x runs from 0 to ${width - 1}).`, "x");
  if (y < 0 || y >= height) throw badAction(`y=${y} is outside the ${screenWords(dims)} screen (y runs from 0 to ${height - 1}).`, "y");
}
