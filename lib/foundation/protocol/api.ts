import { z } from "zod";
import { MODEL_ROLES, type ModelRole } from "./agent-cards";
import { InteractionChoiceSchema } from "./interaction-choice";
import { MAX_MESSAGE_CHARS, tooLongMessage } from "./message-limit";
import { RedoRequestSchema } from "./redo";

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
    // Refused in the person's words (`sentence`: shown as is, without the field's name before it).
    content: PersonText.refine((s) => s.length <= MAX_MESSAGE_CHARS, {
      error: (issue) => tooLongMessage(typeof issue.input === "string" ? issue.input.length : null),
      params: { sentence: true },
    }),
    media: z.array(z.string().uuid()).max(20).optional(),
    /**
     * The seq of the question this answers (an interaction card sends it): taken only while that
     * very question waits, so a late or repeated click never answers the next card.
     */
    answers: z.number().int().positive().optional(),
    /**
     * A card's answer with fields (the tool review's tool and threshold), typed: it answers only
     * a waiting card of its kind, and `content` is ignored (send "").
     */
    choice: InteractionChoiceSchema.optional(),
    /**
     * Do a turn again instead of posting a new message (redo.ts): continue a run that failed or
     * was stopped, answer the latest message again, or replace a message with `content`.
     * `content` is ignored (and may be empty) for continue and regenerate.
     */
    redo: RedoRequestSchema.optional(),
  })
  .strict()
  .refine((b) => b.redo === undefined || b.role === "user", { message: "a redo is sent with role user", path: ["redo"] })
  .refine((b) => b.choice === undefined || b.role === "interaction_response", { message: "a choice is sent with role interaction_response", path: ["choice"] })
  .refine((b) => b.choice !== undefined || b.redo?.kind === "continue" || b.redo?.kind === "regenerate" || b.content.trim().length > 0 || (b.media?.length ?? 0) > 0, {
    message: "a message needs some text or at least one upload",
    path: ["content"],
  });

export type PostMessage = z.infer<typeof PostMessageBody>;

export const FileVariantQuery = z.enum(["original", "thumb"]).default("original");

/** `?grant=`: what a function token's call answered with, so that token can read that picture (function-tokens.ts). */
export const FileGrantQuery = z.string().regex(/^[\w-]{1,100}$/).optional();
