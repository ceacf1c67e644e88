import { z } from "zod";
import { MODEL_ROLES, type ModelRole } from "./agent-cards";

/** Request bodies of the HTTP interface (DESIGN §6), validated by every route. */

/**
 * Text a person writes (a title, a message). The NUL character is refused: Postgres cannot store
 * it in text (SQLite would), so it is a 400 on both databases instead of a 500 on one.
 */
export const PersonText = z.string().refine((s) => !s.includes("\u0000"), { message: "must not contain the NUL character (\\u0000)" });
const Title = PersonText.pipe(z.string().trim().min(1).max(120));

export const CreateSessionBody = z
  .object({ title: Title.optional() })
  .strict();

/** A model's name as the endpoint lists it (`GET /v1/models`): printable, one line. */
const ModelName = z.string().trim().min(1).max(200).regex(/^[^\u0000-\u001f\u007f]+$/, "must be a model name on one line");
export const ModelRoleSchema = z.enum(MODEL_ROLES as readonly ModelRole[] as [ModelRole, ...ModelRole[]]);

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
    /**
     * The model each role uses in this session's runs, chosen in the chat from what the endpoint
     * lists; a role left out uses the server's (ARGUS_MODEL_<ROLE>). Sent whole: it replaces the
     * session's earlier choice.
     */
    models: z.partialRecord(ModelRoleSchema, ModelName).optional(),
  })
  .strict();

/** A session's settings as GET /api/sessions/:id returns them (unset keys take their defaults). */
export type SessionSettingsView = z.infer<typeof SessionSettings>;

export const PatchSessionBody = z
  .object({ title: Title.optional(), settings: SessionSettings.optional() })
  .strict()
  .refine((b) => b.title !== undefined || b.settings !== undefined, { message: "send a title or settings", path: ["title"] });

export const PostMessageBody = z
  .object({
    role: z.enum(["user", "interaction_response"]),
    content: PersonText.pipe(z.string().max(20_000)),
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

/** `?grant=`: what a function token's call answered with, so that token can read that picture (function-tokens.ts). */
export const FileGrantQuery = z.string().regex(/^[\w-]{1,100}$/).optional();
