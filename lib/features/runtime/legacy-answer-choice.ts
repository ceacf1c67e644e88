/**
 * A tool review's answer as an older log kept it. Before answers carried typed fields
 * (`args.choice`, lib/foundation/protocol/interaction-choice.ts), the tool-review card answered with the JSON
 * text `{"function_name": …, "box_threshold": …}` as the message's content. This reads exactly that
 * shape back, once, on the server, so an old session's card still shows the pick; an answer given
 * now carries its choice and never comes here, and nothing else reads a person's text as JSON.
 */
import { z } from "zod";
import { InteractionChoiceSchema, type InteractionChoice } from "@/lib/foundation/protocol/interaction-choice";

const CardAnswerJson = z.strictObject({ function_name: z.string(), box_threshold: z.number() });

/** The choice an older answer's text held, or null for words (anything but the card's exact JSON). */
export function choiceFromOldAnswer(text: string): InteractionChoice | null {
  if (!text.startsWith("{")) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const card = CardAnswerJson.safeParse(data);
  if (!card.success) return null;
  const choice = InteractionChoiceSchema.safeParse({ kind: "tool_review", ...card.data });
  return choice.success ? choice.data : null;
}
