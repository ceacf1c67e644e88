/**
 * The Responses API's computer actions (`computer_call.action`, peers.md §A.5)
 * as one zod union, and their dispatch onto a Computer: what the browsing
 * agent hands over when the model acts. Arguments are validated here, before
 * anything happens; the Computer validates again at its own boundary.
 */
import { z } from "zod";
import { ButtonSchema, Coordinate, DragPathSchema, KeysSchema, ScrollDelta, TextSchema, WaitSchema } from "./computer-args";
import type { Computer } from "./computer-types";
import { badAction } from "./errors";

export const ComputerActionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("click"), x: Coordinate, y: Coordinate, button: ButtonSchema.default("left") }),
  z.object({ type: z.literal("double_click"), x: Coordinate, y: Coordinate }),
  z.object({ type: z.literal("scroll"), x: Coordinate, y: Coordinate, scroll_x: ScrollDelta.default(0), scroll_y: ScrollDelta.default(0) }),
  z.object({ type: z.literal("type"), text: TextSchema }),
  z.object({ type: z.literal("keypress"), keys: KeysSchema }),
  z.object({ type: z.literal("drag"), path: DragPathSchema }),
  z.object({ type: z.literal("move"), x: Coordinate, y: Coordinate }),
  // The API's wait carries no arguments; `ms` is Argus's, for models given a function tool.
  z.object({ type: z.literal("wait"), ms: WaitSchema.optional() }),
  z.object({ type: z.literal("screenshot") }),
]);
export type ComputerAction = z.infer<typeof ComputerActionSchema>;

/** Validates a model's action, or throws bad_request:browser in one sentence. */
export function parseAction(value: unknown): ComputerAction {
  const parsed = ComputerActionSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw badAction(`That computer action is not valid: ${where}${issue?.message ?? "invalid"}.`, "action");
}

/** A short line for logs and the transcript: `click(120, 45)`, `keypress(CTRL+A)`. */
export function describeAction(action: ComputerAction): string {
  switch (action.type) {
    case "click":
      return action.button === "left" ? `click(${action.x}, ${action.y})` : `click(${action.x}, ${action.y}, ${action.button})`;
    case "double_click":
    case "move":
      return `${action.type}(${action.x}, ${action.y})`;
    case "scroll":
      return `scroll(${action.x}, ${action.y}, by ${action.scroll_x}, ${action.scroll_y})`;
    case "type":
      return `type(${JSON.stringify(action.text.length > 60 ? `${action.text.slice(0, 60)}…` : action.text)})`;
    case "keypress":
      return `keypress(${action.keys.join("+")})`;
    case "drag":
      return `drag(${action.path.map((p) => `${p.x},${p.y}`).join(" → ")})`;
    case "wait":
      return `wait(${action.ms ?? 1000} ms)`;
    case "screenshot":
      return "screenshot()";
  }
}

/** Carries out one action. `screenshot` does nothing here: the caller takes one after every action. */
export async function performAction(computer: Computer, value: unknown): Promise<ComputerAction> {
  const action = parseAction(value);
  switch (action.type) {
    case "click":
      await computer.click(action.x, action.y, action.button);
      break;
    case "double_click":
      await computer.doubleClick(action.x, action.y);
      break;
    case "scroll":
      await computer.scroll(action.x, action.y, action.scroll_x, action.scroll_y);
      break;
    case "type":
      await computer.type(action.text);
      break;
    case "keypress":
      await computer.keypress(action.keys);
      break;
    case "drag":
      await computer.drag(action.path);
      break;
    case "move":
      await computer.move(action.x, action.y);
      break;
    case "wait":
      await computer.wait(action.ms);
      break;
    case "screenshot":
      break;
  }
  return action;
}
