/**
 * What the chat shows of the browsing agent: the fields of the `browser_step`, `browser_screen`
 * and `safety_check` chat items (lib/foundation/protocol/chat-item.ts), which the chat renders. The
 * compatible text form writes the same objects as JSON in tags (lib/foundation/protocol/chat-text.ts):
 *
 * - role `browser`: `<thinking>…</thinking>` (optional) then `<browser_action>{BrowserActionWire}</browser_action>`
 * - role `observation`: `<browser_observation>{BrowserObservationWire}</browser_observation>` then
 *   the observation's text for the model; `media` is `[screenshot URL]`
 * - role `interaction` with kind `safety`: payload `SafetyPayload`, options `["Confirm", "Refuse"]`
 */
import { z } from "zod";

export const BROWSER_TOOLS = ["computer", "goto", "back", "save_image", "done"] as const;

const PointWire = z.object({ x: z.number(), y: z.number() });

export const BrowserActionWireSchema = z.object({
  tool: z.enum(BROWSER_TOOLS),
  /** One line: `click(120, 45)`, `goto(https://…)`, `save_image(product.png)`. */
  summary: z.string(),
  /** Where the pointer acts, in the screen's CSS pixels (click, scroll, move…); null otherwise. */
  pointer: PointWire.nullable(),
});
export type BrowserActionWire = z.infer<typeof BrowserActionWireSchema>;

export const BrowserObservationWireSchema = z.object({
  url: z.string(),
  title: z.string(),
  /** The action this follows (its summary), '' for the first screenshot. */
  action: z.string(),
  /** Why the action failed or was refused, in words; '' when it worked. */
  error: z.string(),
  pointer: PointWire.nullable(),
  /** The screen in CSS pixels: [width, height]. */
  viewport: z.tuple([z.number(), z.number()]),
  tabs: z.number().int().nonnegative(),
});
export type BrowserObservationWire = z.infer<typeof BrowserObservationWireSchema>;

export const SafetyCheckSchema = z.object({
  /** `password_field`, `form_submit`, `leaves_site`, `download`, or the model's own code. */
  code: z.string(),
  message: z.string(),
  /** Argus's policy, or the model (`pending_safety_checks`). */
  source: z.enum(["policy", "model"]),
});
export type SafetyCheck = z.infer<typeof SafetyCheckSchema>;

export const SafetyPayloadSchema = z.object({
  action: z.string(),
  url: z.string(),
  checks: z.array(SafetyCheckSchema).min(1),
  /** The screenshot the action was decided on, as a file URL. */
  screenshot: z.string().nullable(),
  pointer: PointWire.nullable(),
  /** The screen the screenshot shows, in CSS pixels: [width, height] (where `pointer` is). */
  viewport: z.tuple([z.number(), z.number()]),
});
export type SafetyPayload = z.infer<typeof SafetyPayloadSchema>;

export const SAFETY_OPTIONS = ["Confirm", "Refuse"] as const;
