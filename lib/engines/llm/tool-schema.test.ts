import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toJsonSchema, toSdkTools } from "./tool-schema";

describe("tool schemas", () => {
  const schema = z.object({
    thinking: z.string().describe("why"),
    options: z.array(z.string()).default([]),
    mode: z.enum(["fast", "slow"]).optional(),
  });

  it("become draft-07 JSON schema without $schema, describing the input", () => {
    const json = toJsonSchema(schema) as Record<string, unknown>;
    expect(json.$schema).toBeUndefined();
    expect(json.type).toBe("object");
    expect(json.required).toEqual(["thinking"]);
    expect(json.properties).toMatchObject({ thinking: { type: "string", description: "why" }, mode: { enum: ["fast", "slow"] } });
  });

  it("become SDK tools with no execute, so the SDK never runs anything", () => {
    const tools = toSdkTools({ reply: { description: "Answer the person.", schema } });
    expect(Object.keys(tools)).toEqual(["reply"]);
    expect(tools.reply?.description).toBe("Answer the person.");
    expect(tools.reply?.execute).toBeUndefined();
  });
});
