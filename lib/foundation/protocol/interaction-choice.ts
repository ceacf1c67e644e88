/**
 * An answer a card gives with fields rather than words: the tool-review card's chosen tool and
 * confidence threshold. It travels typed (`choice` on `POST /api/sessions/:id/messages`, stored in
 * the answer's `args.choice`, sent in the `answer` chat item), so nothing has to guess whether a
 * person's text is JSON: words are always words. The answer's text form (its `content`, what the
 * agents and API clients read) is written from the choice.
 */
import { z } from "zod";

/** The tool-review card's answer: the candidate to use and the threshold its boxes are cut at. */
export const ToolReviewChoiceSchema = z.strictObject({
  kind: z.literal("tool_review"),
  /** One of the review's candidates (the server checks it is). */
  function_name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a tool's name").max(100),
  box_threshold: z.number().min(0).max(1),
});
export type ToolReviewChoice = z.infer<typeof ToolReviewChoiceSchema>;

/** The kinds of interaction a run waits on (an `interaction` action's `kind`). */
export type InteractionKind = "question" | "tool_review" | "safety";

/** Every answer with fields, by the kind of card that gives it (one kind so far). */
export const InteractionChoiceSchema = z.discriminatedUnion("kind", [ToolReviewChoiceSchema]);
export type InteractionChoice = z.infer<typeof InteractionChoiceSchema>;

/** The choice's text form: the JSON the tool-review card has always answered with. */
export function choiceText(choice: InteractionChoice): string {
  return JSON.stringify({ function_name: choice.function_name, box_threshold: choice.box_threshold });
}
