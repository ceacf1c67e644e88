import { z } from "zod";

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
};
