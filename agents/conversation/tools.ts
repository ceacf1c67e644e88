import { z } from "zod";
import type { ToolSpecs } from "@/lib/engines/llm/tool-schema";

const CONVERSATION_ACTIONS = ["generate_or_edit_vision_code", "edit_code", "run_on_all_images"] as const;

const response = z.string().min(1).max(20_000).describe("What you say to the person, in Markdown.");

/** The conversation agent's one tool: exactly one response, at most one action. */
export const conversationTools = {
  reply: {
    description:
      "Answer the person. Optionally take ONE action: generate_or_edit_vision_code (plan and write vision code for their images), edit_code (a small change to the code you already wrote), or run_on_all_images (run the latest function you wrote on every image of the session, as a batch).",
    schema: z.object({
      response,
      action: z.enum(CONVERSATION_ACTIONS).optional().describe("Leave out unless the person asked for code or a change to it."),
    }),
    draft: "response",
  },
} satisfies ToolSpecs;

/** The same tool when a browser model is configured: `browse` opens a web page and works in it. */
export const browsingConversationTools = {
  reply: {
    description:
      "Answer the person. Optionally take ONE action: generate_or_edit_vision_code (plan and write vision code for their images), edit_code (a small change to the code you already wrote), run_on_all_images (run the latest function you wrote on every image of the session, as a batch), or browse (a browser agent opens url and does browse_task there; it can save pictures from the page for vision code).",
    schema: z
      .object({
        response,
        action: z.enum([...CONVERSATION_ACTIONS, "browse"]).optional().describe("Leave out unless the person asked for code, a change to it, or something on a web page."),
        browse_task: z.string().min(1).max(4_000).optional().describe("With browse: what the browser agent should do and find, in one or two sentences."),
        url: z.string().min(1).max(8_192).optional().describe("With browse: the page to start on."),
      })
      .refine((a) => a.action !== "browse" || (a.url !== undefined && a.browse_task !== undefined), {
        message: "the browse action needs url and browse_task",
        path: ["url"],
      }),
    draft: "response",
  },
} satisfies ToolSpecs;

/** After a browse: one more action is possible, vision code on the pictures it saved. */
export const followUpConversationTools = conversationTools;

/** What the person was answered, and the action chosen (the browsing tool's arguments cover both tools'). */
export type ReplyArgs = z.output<(typeof browsingConversationTools)["reply"]["schema"]>;
