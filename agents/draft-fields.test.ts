import { describe, expect, it } from "vitest";
import { TAG_TEXT_FIELD } from "@/lib/llm/draft";
import { toJsonSchema, type ToolSpecs } from "@/lib/llm/tool-schema";
import { coderTools, fixTools, testTools } from "./coder/tools";
import { conversationTools } from "./conversation/tools";
import { plannerTools, summaryTools } from "./planner/tools";

const ALL: ToolSpecs = { ...plannerTools, ...summaryTools, ...coderTools, ...testTools, ...fixTools, ...conversationTools };
const THINKING = new Set(["thinking", "thoughts"]);

/** tagged-calls.ts's rule: the only non-thinking field, else the first required string field. */
function tagTextField(spec: ToolSpecs[string]): string | undefined {
  const json = toJsonSchema(spec.schema) as { properties?: Record<string, { type?: string }>; required?: string[] };
  const own = Object.entries(json.properties ?? {}).filter(([name]) => !THINKING.has(name));
  if (own.length === 1) return own[0]![0];
  return own.find(([name, f]) => (json.required ?? []).includes(name) && f.type === "string")?.[0];
}

describe("the live draft knows Argus's tools", () => {
  it("fills the same field from a tag's plain text as the text protocol does", () => {
    expect(Object.keys(TAG_TEXT_FIELD).sort()).toEqual(Object.keys(ALL).sort());
    for (const [name, spec] of Object.entries(ALL)) {
      expect(TAG_TEXT_FIELD[name], name).toBe(tagTextField(spec));
    }
  });
});
