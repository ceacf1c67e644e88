/** Distinct region colours that read on photos in light and dark mode. */
const PALETTE = ["#f97316", "#22c55e", "#3b82f6", "#e11d48", "#a855f7", "#eab308", "#06b6d4", "#ec4899"];

export function regionColor(id: number): string {
  return PALETTE[(((id - 1) % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
}

/** The colour of the shape being drawn. */
export const DRAFT_COLOR = "#facc15";
