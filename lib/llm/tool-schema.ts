/**
 * Tools as the model sees them. Argus validates arguments itself with zod (so it can tell the
 * model exactly which field is wrong), so the SDK only receives a JSON schema and no `execute`:
 * it must never run anything, only report the call.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai";
import { z } from "zod";

interface ToolSpec {
  /** Shown to the model; say when to call the tool, not just what it is. */
  description: string;
  /** Validates the arguments; also the source of the JSON schema sent to the model. */
  schema: z.ZodType;
}

export type ToolSpecs = Record<string, ToolSpec>;

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
