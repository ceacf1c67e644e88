/**
 * The text protocol's two halves that know the tools' schemas: how the tools are described to a
 * model that writes its calls as tags, and how a tag it wrote becomes the JSON arguments the
 * tool's zod schema validates (exactly like a native call's). Pure.
 *
 * The format asks for as little JSON as possible, because escaping code inside JSON strings is
 * where small models fail most: a tool with one field takes it as the tag's text; other fields
 * go in child tags (`<question>…</question>`); a JSON object as the tag's text is accepted too.
 */
import { stripFence, type TaggedCall } from "./text-protocol";
import { toJsonSchema, type ToolSpecs } from "./tool-schema";

interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: FieldSchema;
  description?: string;
}

export interface ToolShape {
  fields: [string, FieldSchema][];
  required: Set<string>;
}

/** Fields that hold the model's reasoning: filled from `<thinking>` when the tag leaves them out. */
export const THINKING_FIELDS: ReadonlySet<string> = new Set(["thinking", "thoughts"]);

export function shapeOf(spec: ToolSpecs[string]): ToolShape {
  const json = toJsonSchema(spec.schema) as { properties?: Record<string, FieldSchema>; required?: string[] };
  return { fields: Object.entries(json.properties ?? {}), required: new Set(json.required ?? []) };
}

const typeOf = (field: FieldSchema): string => (Array.isArray(field.type) ? (field.type[0] ?? "string") : (field.type ?? "string"));

/** The field a tag's plain text goes to: its only non-thinking field, or its first required string field. */
export function mainField(shape: ToolShape): string | undefined {
  const own = shape.fields.filter(([name]) => !THINKING_FIELDS.has(name));
  if (own.length === 1) return own[0]![0];
  return own.find(([name, f]) => shape.required.has(name) && typeOf(f) === "string")?.[0];
}

/** A child tag's or attribute's text as the field's JSON type; unparseable text stays text for zod to reject. */
function convert(text: string, field: FieldSchema): unknown {
  const type = typeOf(field);
  if (type === "string") return stripFence(text);
  const trimmed = stripFence(text).trim();
  if (type === "array") {
    if (trimmed.startsWith("[")) {
      try {
        return JSON.parse(trimmed) as unknown;
      } catch {
        return trimmed;
      }
    }
    // One item per line, list markers dropped: how models write lists when not told otherwise.
    return trimmed
      .split(/\r?\n/)
      .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim())
      .filter((line) => line !== "");
  }
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
}

function childTag(body: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body);
  return m ? m[1]!.replace(/^\r?\n/, "").replace(/\r?\n[ \t]*$/, "") : undefined;
}

/**
 * The JSON arguments for a call written as text. JSON the model gave is kept as it is (plus the
 * reasoning, when a thinking field was left out); a tag's text and child tags are mapped onto
 * the schema's fields. A tag that fits nothing keeps its text, so validation says why.
 */
export function fitTaggedCall(call: TaggedCall, spec: ToolSpecs[string], thinking: string): string {
  const shape = shapeOf(spec);
  let args: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(call.raw);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    args = undefined;
  }
  if (args === undefined && call.form !== "tag") return call.raw;
  if (args === undefined) {
    args = {};
    for (const [name, field] of shape.fields) {
      const value = childTag(call.body, name);
      if (value !== undefined) args[name] = convert(value, field);
    }
    if (Object.keys(args).length === 0) {
      const main = mainField(shape);
      // A body that starts like a JSON object was meant as one: say it is broken, don't take it as text.
      if (main === undefined || /^\{\s*"[^"]+"\s*:/.test(stripFence(call.body).trim())) return call.raw;
      args[main] = convert(call.body, shape.fields.find(([name]) => name === main)![1]);
    }
  }
  for (const [name, field] of shape.fields) {
    if (args[name] === undefined && call.attributes[name] !== undefined) args[name] = convert(call.attributes[name], field);
    if (args[name] === undefined && THINKING_FIELDS.has(name) && (thinking !== "" || shape.required.has(name))) args[name] = thinking;
  }
  return JSON.stringify(args);
}

function placeholder(name: string, field: FieldSchema): string {
  if (typeOf(field) === "array") return `["…", "…"]`;
  if (field.enum !== undefined) return field.enum.map(String).join(" or ");
  return `…${name}…`;
}

/** How one tool is written as a tag, as an example the model can copy. */
function example(name: string, shape: ToolShape): string {
  const own = shape.fields.filter(([field]) => !THINKING_FIELDS.has(field));
  if (own.length === 0) return `<${name}/>`;
  if (own.length === 1) return `<${name}>\n${placeholder(own[0]![0], own[0]![1])}\n</${name}>`;
  const children = own.map(([field, schema]) => `<${field}>${placeholder(field, schema)}</${field}>`);
  return `<${name}>\n${children.join("\n")}\n</${name}>`;
}

function fieldNotes(shape: ToolShape): string {
  const own = shape.fields.filter(([field]) => !THINKING_FIELDS.has(field));
  if (own.length < 2) return "";
  const notes = own.map(([field, schema]) => {
    const optional = shape.required.has(field) ? "" : " (optional: leave the tag out)";
    const about = schema.description ? `: ${schema.description}` : "";
    return `  - ${field}${optional}${about}`;
  });
  return `\n${notes.join("\n")}`;
}

/** The system-prompt section that replaces native tools when the text protocol is used. */
export function textProtocolInstructions(tools: ToolSpecs): string {
  const entries = Object.entries(tools).map(([name, spec]) => {
    const shape = shapeOf(spec);
    return `${example(name, shape)}\n${spec.description}${fieldNotes(shape)}`;
  });
  return [
    "## How to answer",
    "Answer in tagged text: first your reasoning inside <thinking>…</thinking>, then exactly ONE action tag, and nothing after it. Write code and text as they are (no JSON escaping, no code fences needed).",
    "",
    "The actions:",
    "",
    entries.join("\n\n"),
  ].join("\n");
}
