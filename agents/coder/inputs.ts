import { z } from "zod";

/** Upload ids the code works on (none: the ones the person's message chose). */
const uploads = z.array(z.string()).optional();

/**
 * What the conversation agent hands the coder: a task to plan (the planner explores first),
 * or a small edit of the code it wrote last, with the person's words as feedback.
 */
export const CoderDelegationSchema = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("plan"), task: z.string(), uploads }),
  z.object({ mode: z.literal("edit"), feedback: z.string(), code: z.string(), test: z.string(), uploads }),
]);
export type CoderDelegation = z.input<typeof CoderDelegationSchema>;
