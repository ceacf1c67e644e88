/**
 * Tools as the model sees them. Argus validates arguments itself with zod (so it can tell the
 * model exactly which field is wrong), so the SDK only receives a JSON schema and no `execute`:
 * it must never run anything, only report the call.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai";
import { z } from "zod";

/** The fields of a live draft (lib/foundation/protocol/socket.ts's DraftView) that a tool's arguments fill. */
export type DraftField = "code" | "test" | "response" | "question" | "plan";

export interface ToolSpec {
  /** Shown to the model; say when to call the tool, not just what it is. */
  description: string;
  /** Validates the arguments; also the source of the JSON schema sent to the model. */
  schema: z.ZodType;
  /**
   * While the reply is written as tagged text (draft.ts): the draft field the tag's plain text
   * fills (one of the schema's string fields), null when the tag is read but its text fills
   * none. Left out, the tag is not read while drafting (only the thinking shows).
   */
  draft?: DraftField | null;
}

export type ToolSpecs = Record<string, ToolSpec>;

/**
 * One validated call of one of `T`'s tools: its name and its arguments as that tool's schema
 * outputs them, a union over the tools, so checking `name` narrows `args`.
 */
export type ToolCallOf<T extends ToolSpecs> = T extends unknown
  ? { [K in keyof T & string]: { name: K; args: z.output<T[K]["schema"]> } }[keyof T & string]
  : never;

/** Which tag each of `tools` is read by while drafting, and the field its text fills. */
export function draftTags(tools: ToolSpecs): Readonly<Record<string, DraftField | null>> {
  const tags: Record<string, DraftField | null> = {};
  for (const [name, spec] of Object.entries(tools)) if (spec.draft !== undefined) tags[name] = spec.draft;
  return tags;
}

/**
 * Draft-7 is what vLLM's and llama.cpp's grammar engines understand best; `$schema` is dropped
 * because some OpenAI-compatible servers reject unknown top-level keys in `parameters`.
 * `io: "input"` describes what the model must send (fields with defaults are optional).
 */
export function toJsonSchema(schema: z.ZodType): JSONSchema7 {
  const json = z.toJSONSchema(schema, { target: "draft-07", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = json;
  return rest as JSONSchema7;
}

export function toSdkTools(tools: ToolSpecs): Record<string, Tool> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, spec]) => [
      name,
      tool({ description: spec.description, inputSchema: jsonSchema(toJsonSchema(spec.schema)) }),
    ]),
  );
}
