/**
 * Tool calls written as text, the way a model without native tool calling writes them: in
 * Argus's text protocol (`<thinking>…</thinking><name>{json}</name>`, what a model told that
 * protocol answers) or as Hermes/Qwen `<tool_call>` blocks (what vLLM returns for such a model
 * when it runs without a tool-call parser). Pure.
 */

export interface ScriptedCall {
  name: string;
  /** An object, or a string sent verbatim (a test's broken JSON). */
  args: unknown;
}

const THINKING_FIELDS = ["thinking", "thoughts"] as const;

/** `<thinking>` from a thinking field, then the call as a tag holding the other fields' JSON. */
export function renderProtocolCall(call: ScriptedCall): string {
  if (typeof call.args === "string") return `<${call.name}>\n${call.args}\n</${call.name}>`;
  const fields = { ...((call.args ?? {}) as Record<string, unknown>) };
  let thinking = "";
  for (const field of THINKING_FIELDS) {
    if (typeof fields[field] === "string") {
      thinking ||= fields[field] as string;
      delete fields[field];
    }
  }
  const head = thinking === "" ? "" : `<thinking>${thinking}</thinking>\n`;
  const body = Object.keys(fields).length === 0 ? `<${call.name}/>` : `<${call.name}>\n${JSON.stringify(fields)}\n</${call.name}>`;
  return head + body;
}

export function renderHermesCall(call: ScriptedCall): string {
  const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {});
  return `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${args}}\n</tool_call>`;
}

/** The turn's text and its calls as one content string. */
export function withCalls(text: string | undefined, calls: readonly ScriptedCall[], render: (c: ScriptedCall) => string): string {
  const rendered = calls.map(render).join("\n");
  return text === undefined || text === "" ? rendered : `${text}\n${rendered}`;
}
