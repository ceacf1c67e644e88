import { z } from "zod";
import { parseAction } from "@/lib/engines/computer/computer-actions";
import { isArgusError } from "@/lib/foundation/errors";
import type { ToolCallOf, ToolSpecs } from "@/lib/engines/llm/tool-schema";
import type { BrowserMove } from "./engine";

const thinking = z.string().max(4_000).optional().describe("Why this step, briefly.");

/**
 * The browsing agent's tools over Chat Completions. The computer tool's fields are loose on
 * purpose: a malformed action is not sent back for repair but carried to the agent, which tells
 * the model in words what was wrong (an observation, like any other step).
 */
export const browserTools = {
  computer: {
    description:
      "Act on the screen, one action per call. action is one of: click {x, y, button?: left|right|middle}, double_click {x, y}, scroll {x, y, scroll_x, scroll_y} (scrolls what is under x,y, e.g. a box inside the page), type {text} (into the focused field), keypress {keys: [..]} (one chord held together, e.g. [\"CTRL\", \"A\"] or [\"Enter\"]), drag {path: [{x, y}, ...]}, move {x, y}, wait {ms?}. Coordinates are pixels of the latest screenshot.",
    schema: z.object({
      thinking,
      action: z.string().describe("click, double_click, scroll, type, keypress, drag, move or wait"),
      x: z.unknown().optional().describe("Pixels from the screenshot's left edge."),
      y: z.unknown().optional().describe("Pixels from the screenshot's top edge."),
      button: z.unknown().optional(),
      scroll_x: z.unknown().optional(),
      scroll_y: z.unknown().optional(),
      text: z.unknown().optional(),
      keys: z.unknown().optional(),
      path: z.unknown().optional(),
      ms: z.unknown().optional(),
    }),
  },
  goto: {
    description: "Open a URL in the current tab.",
    schema: z.object({ thinking, url: z.string().min(1).max(8_192) }),
  },
  back: {
    description: "Go back one page in the current tab.",
    schema: z.object({ thinking }),
  },
  save_image: {
    description:
      "Save a picture from the page into the person's session, so vision code can work on it: the element matching a CSS selector (e.g. \"#product img\"), or a region {x, y, width, height} of the screenshot. name is the file name to give it, e.g. product.png.",
    schema: z.object({
      thinking,
      name: z.string().min(1).max(120),
      selector: z.string().min(1).max(500).optional(),
      region: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
    }),
  },
  done: {
    description: "Finish: say what you found (and the names of the pictures you saved), or why you could not.",
    schema: z.object({ thinking, answer: z.string().min(1).max(8_000) }),
  },
} satisfies ToolSpecs;
// No tool has a `draft` field: the browser's live draft shows only its thinking.

/** A validated call of one of the browser's tools besides `computer`. */
export type FunctionCall = ToolCallOf<Omit<typeof browserTools, "computer">>;

/** The move a validated call of a tool other than `computer` asks for (both engines read calls this way). */
export function toolMove(call: FunctionCall): BrowserMove {
  switch (call.name) {
    case "goto":
      return { tool: "goto", url: call.args.url };
    case "back":
      return { tool: "back" };
    case "save_image": {
      const { name, selector, region } = call.args;
      return { tool: "save_image", name, ...(selector !== undefined ? { selector } : {}), ...(region ? { region } : {}) };
    }
    case "done":
      return { tool: "done", answer: call.args.answer };
  }
}

const COMPUTER_FIELDS = ["x", "y", "button", "scroll_x", "scroll_y", "text", "keys", "path", "ms"] as const;

/** The computer tool's loose arguments as a Responses-style action, or an `invalid` move saying what is wrong. */
export function computerMove(args: Record<string, unknown>): BrowserMove {
  const action: Record<string, unknown> = { type: args.action };
  for (const field of COMPUTER_FIELDS) if (args[field] !== undefined && args[field] !== null) action[field] = args[field];
  // "ctrl+a" is how many models write a chord.
  if (typeof action.keys === "string") action.keys = action.keys.split("+").map((k) => k.trim()).filter(Boolean);
  const summary = `computer(${JSON.stringify(action).slice(0, 200)})`;
  try {
    return { tool: "computer", action: parseAction(action), checks: [] };
  } catch (error) {
    if (!isArgusError(error)) throw error;
    return { tool: "invalid", error: error.message, summary };
  }
}

