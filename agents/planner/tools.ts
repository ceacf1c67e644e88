import { z } from "zod";
import type { ToolSpecs } from "@/lib/engines/llm/tool-schema";

const thinking = z.string().max(8_000).describe("Your reasoning for this step, briefly.");

/** The planner's tools for exploring (DESIGN §4). */
export const plannerTools = {
  execute_python: {
    description:
      "Run Python in the live notebook. Variables persist between calls. The person's files are in the current directory. Use view_image(obj) to look at a picture on your next turn.",
    schema: z.object({ thinking, code: z.string().min(1).max(50_000).describe("Python code to run.") }),
    draft: "code",
  },
  ask_user: {
    description: "Ask the person a question when a choice only they can make blocks you (which object, which approach). The notebook waits, state intact.",
    schema: z.object({
      thinking,
      question: z.string().min(1).max(2_000),
      options: z.array(z.string().min(1).max(200)).max(8).optional().describe("Short choices, if the answer is one of a few."),
    }),
    draft: "question",
  },
  finalize_plan: {
    description: "Stop exploring: you know how to solve the task and what the answer is.",
    schema: z.object({ thinking }),
    draft: null,
  },
} satisfies ToolSpecs;

/** Restricted set for auto-fix turns: only running corrected code makes sense. */
export const plannerFixTools = { execute_python: plannerTools.execute_python };

/** The planner's summary call. */
export const summaryTools = {
  submit_plan: {
    description: "Submit the final plan for the coder.",
    schema: z.object({
      plan: z.string().min(1).max(20_000).describe("What the solution does and the answer you found (e.g. '24 coins')."),
      instructions: z.array(z.string().min(1).max(2_000)).min(1).max(30).describe("Step-by-step instructions naming the exact functions and parameters that worked."),
      code: z.string().max(50_000).describe("One Python function that solves the task for an image path, built from the code that worked."),
    }),
    draft: "plan",
  },
} satisfies ToolSpecs;
