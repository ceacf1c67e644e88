import { clsx, type ClassValue } from "clsx";
import { extendTailwindMerge } from "tailwind-merge";

// The named sizes from app/globals.css (h-control, p-pane…), so that a
// later h-auto replaces h-control instead of both being kept.
const twMerge = extendTailwindMerge({
  extend: { theme: { spacing: ["control", "control-sm", "control-xs", "pane", "sidebar"] } },
});

/** Joins class names; a later Tailwind class wins over an earlier one of the same kind (px-2 then px-4 → px-4). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
