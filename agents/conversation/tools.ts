import { z } from "zod";

const CONVERSATION_ACTIONS = ["generate_or_edit_vision_code", "edit_code"] as const;

/** The conversation agent's one tool: exactly one response, at most one action. */
export const conversationTools = {
  reply: {
    description:
      "Answer the person. Optionally take ONE action: generate_or_edit_vision_code (plan and write vision code for their images) or edit_code (a small change to the code you already wrote).",
    schema: z.object({
      response: z.string().min(1).max(20_000).describe("What you say to the person, in Markdown."),
      action: z.enum(CONVERSATION_ACTIONS).optional().describe("Leave out unless the person asked for code or a change to it."),
    }),
  },
};

export type ReplyArgs = z.infer<typeof conversationTools.reply.schema>;
