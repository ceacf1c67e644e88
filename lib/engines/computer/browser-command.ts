/**
 * One browsing step as the log stores it (`browse_interactive.browser_actions`,
 * JSON): the move the model chose, already scaled to the page's CSS pixels,
 * with what Argus needs to carry it out and to ask first — the site the task
 * started on, and the checks the model itself raised. Written by the browsing
 * agent, read by the browser steps; validated on both sides of the log.
 */
import { z } from "zod";
import { SafetyCheckSchema } from "@/lib/foundation/protocol/browser-wire";
import { ComputerActionSchema, describeAction, type ComputerAction } from "./computer-actions";

const Region = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

const Common = { startUrl: z.string() };

export const BrowserCommandSchema = z.discriminatedUnion("tool", [
  z.object({ ...Common, tool: z.literal("computer"), action: ComputerActionSchema, checks: z.array(SafetyCheckSchema).default([]) }),
  z.object({ ...Common, tool: z.literal("goto"), url: z.string() }),
  z.object({ ...Common, tool: z.literal("back") }),
  z.object({ ...Common, tool: z.literal("save_image"), name: z.string(), selector: z.string().optional(), region: Region.optional() }),
  z.object({ ...Common, tool: z.literal("invalid"), error: z.string(), summary: z.string() }),
]);
export type BrowserCommand = z.infer<typeof BrowserCommandSchema>;

/** The command a log entry holds, or null when it holds something else. */
export function readCommand(json: string): BrowserCommand | null {
  try {
    const parsed = BrowserCommandSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** One line for the chat and the model: `click(120, 45)`, `goto(https://…)`. */
export function commandSummary(c: BrowserCommand): string {
  switch (c.tool) {
    case "computer":
      return describeAction(c.action);
    case "goto":
      return `goto(${c.url})`;
    case "back":
      return "back()";
    case "save_image":
      return `save_image(${c.name}${c.selector ? `, ${c.selector}` : c.region ? `, ${c.region.x},${c.region.y} ${c.region.width}×${c.region.height}` : ""})`;
    case "invalid":
      return c.summary;
  }
}

/** Where the pointer acts, in CSS pixels, when the command points somewhere. */
export function commandPointer(c: BrowserCommand): { x: number; y: number } | null {
  if (c.tool === "save_image" && c.region) return { x: c.region.x + c.region.width / 2, y: c.region.y + c.region.height / 2 };
  if (c.tool !== "computer") return null;
  const a: ComputerAction = c.action;
  switch (a.type) {
    case "click":
    case "double_click":
    case "scroll":
    case "move":
      return { x: a.x, y: a.y };
    case "drag":
      return a.path.at(-1) ?? null;
    default:
      return null;
  }
}
