import { z } from "zod";

/** Request bodies of the HTTP interface (DESIGN §6), validated by every route. */

export const CreateSessionBody = z
  .object({ title: z.string().trim().min(1).max(120).optional() })
  .strict();

export const SessionSettings = z
  .object({
    /** Show get_tool_for_task's candidates to the person before the planner uses one (default on). */
    toolReview: z.boolean().optional(),
    /**
     * Argus's own browser safety checks (password field, form submit, leaving the site, download):
     * "ask" before the action (default), or "never" for sandboxed labs. Checks the model itself
     * raises are always asked.
     */
    browserPolicyChecks: z.enum(["ask", "never"]).optional(),
  })
  .strict();

/** A session's settings as GET /api/sessions/:id returns them (unset keys take their defaults). */
export type SessionSettingsView = z.infer<typeof SessionSettings>;

export const PatchSessionBody = z
  .object({ title: z.string().trim().min(1).max(120).optional(), settings: SessionSettings.optional() })
  .strict()
  .refine((b) => b.title !== undefined || b.settings !== undefined, { message: "send a title or settings", path: ["title"] });

export const PostMessageBody = z
  .object({
    role: z.enum(["user", "interaction_response"]),
    content: z.string().max(20_000),
    media: z.array(z.string().uuid()).max(20).optional(),
    /**
     * The seq of the question this answers (an interaction card sends it): taken only while that
     * very question waits, so a late or repeated click never answers the next card.
     */
    answers: z.number().int().positive().optional(),
  })
  .strict()
  .refine((b) => b.content.trim().length > 0 || (b.media?.length ?? 0) > 0, {
    message: "a message needs some text or at least one upload",
    path: ["content"],
  });

export type PostMessage = z.infer<typeof PostMessageBody>;

export const FileVariantQuery = z.enum(["original", "thumb"]).default("original");
