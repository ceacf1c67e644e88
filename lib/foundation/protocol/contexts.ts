/**
 * What the agents hand each other (vision-agent's contexts), plus the kernel's
 * `Execution`. Field names are camelCase; these never travel in OpenHands'
 * dict shape.
 */
import { z } from "zod";
import { AgentMessageSchema } from "./agent-message";

/** One display output or the cell's value: a mime bundle of strings. */
const ExecutionResultSchema = z.object({
  /**
   * mime type → data. Images are base64; `application/json` bundles must be
   * JSON.stringify'd by the kernel layer so every value is a string.
   */
  data: z.record(z.string(), z.string()),
  /** true for `execute_result` (the cell's value), false for `display_data`. */
  isMain: z.boolean(),
  /**
   * true when the code asked the planner to look at this picture with
   * `view_image(obj)`: it goes into the model's context on the next turn.
   */
  viewed: z.boolean().default(false),
});
export type ExecutionResult = z.infer<typeof ExecutionResultSchema>;

const ExecutionErrorSchema = z.object({
  name: z.string(),
  value: z.string(),
  /** Joined lines with ANSI colour codes removed. */
  traceback: z.string(),
});

export const ExecutionSchema = z.object({
  results: z.array(ExecutionResultSchema),
  stdout: z.string(),
  stderr: z.string(),
  error: ExecutionErrorSchema.nullable(),
});
export type Execution = z.infer<typeof ExecutionSchema>;

export const PlanContextSchema = z.object({
  plan: z.string(),
  instructions: z.array(z.string()),
  /** The finalizer's single function; empty when it wrote none. */
  code: z.string().default(""),
});
export type PlanContext = z.infer<typeof PlanContextSchema>;

export const CodeContextSchema = z.object({
  code: z.string(),
  test: z.string(),
  /** The test ran without an exception (empty output still counts). */
  success: z.boolean(),
  /** What the last test run printed, its error included, as the coder saw it. */
  testResult: z.string(),
  /** What the conversation agent is told: the outcome, the final code and the test output. */
  summary: z.string(),
});
export type CodeContext = z.infer<typeof CodeContextSchema>;

export const InteractionContextSchema = z.object({
  /** The planner's transcript up to and including the `interaction` message. */
  chat: z.array(AgentMessageSchema),
});

export const ErrorContextSchema = z.object({
  error: z.string(),
});
