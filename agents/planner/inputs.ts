import { z } from "zod";

/** What the coder hands the planner: the task, and the upload ids to explore (none: the ones the person chose). */
export const PlannerDelegationSchema = z.object({
  task: z.string(),
  uploads: z.array(z.string()).optional(),
});
export type PlannerDelegation = z.input<typeof PlannerDelegationSchema>;
