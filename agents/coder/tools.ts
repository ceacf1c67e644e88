import { z } from "zod";
import type { ToolSpecs } from "@/lib/engines/llm/tool-schema";

export const coderTools = {
  write_code: {
    description: "Write the final Python function.",
    schema: z.object({ code: z.string().min(1).max(60_000).describe("One or more imports and ONE top-level function taking an image or video path.") }),
    draft: "code",
  },
} satisfies ToolSpecs;

export const testTools = {
  write_test: {
    description: "Write a short test that calls the function on the person's file(s) and prints the result.",
    schema: z.object({ test: z.string().min(1).max(20_000) }),
    draft: "test",
  },
} satisfies ToolSpecs;

export const fixTools = {
  fix_code: {
    description: "Fix the function and/or its test after the failure shown. Send only what changes.",
    schema: z.object({
      thoughts: z.string().min(1).max(8_000).describe("What went wrong and what you change."),
      code: z.string().min(1).max(60_000).optional(),
      test: z.string().min(1).max(20_000).optional(),
    }),
    draft: null,
  },
} satisfies ToolSpecs;
