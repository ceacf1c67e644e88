/**
 * The Responses API side of the scripted model (`POST /v1/responses`, peers.md §A.5): reading and
 * checking a request the way OpenAI does, the chat-shaped view of it that turn matching and
 * `expect` already understand, and the output items a turn answers with.
 *
 * Answers are non-streaming JSON only (`stream: true` is refused): Argus asks for one computer
 * action at a time and does not stream this API.
 *
 * The server remembers what it issued (response, reasoning and call ids, each call's pending
 * safety checks) so it can refuse what OpenAI refuses, and Argus's mistakes show in tests: an
 * output for a call it never made, a call sent back without its output or without the reasoning
 * item that came with it, a pending safety check not acknowledged, an acknowledgement of a check it
 * never raised, truncation other than `auto` with the computer tool, a reasoning summary other
 * than `concise`. Stateless in every other way: the client resends the history (no
 * `previous_response_id`, which is refused with a clear message).
 */
import { z } from "zod";
import { imageBytes, type ChatMessage, type ChatRequest } from "./request";
import type { Expect, Turn } from "./scenario";

const ENVIRONMENTS = ["browser", "mac", "windows", "ubuntu", "linux"];

const ToolSchema = z.looseObject({ type: z.string() });
const ItemSchema = z.looseObject({ type: z.string().optional(), role: z.string().optional() });

const ResponsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(ItemSchema)]),
  instructions: z.string().nullish(),
  tools: z.array(ToolSchema).nullish(),
  truncation: z.string().nullish(),
  reasoning: z.looseObject({ summary: z.string().nullish(), effort: z.string().nullish() }).nullish(),
  previous_response_id: z.string().nullish(),
  stream: z.boolean().nullish(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;
type Item = z.infer<typeof ItemSchema>;

/** A refusal in OpenAI's shape: `param` points at the offending field. */
export interface RequestProblem {
  message: string;
  param: string | null;
  code: string | null;
}

interface IssuedCall {
  kind: "computer_call" | "function_call";
  /** The reasoning item the call came with, which must be sent back right before it. */
  reasoningId: string | null;
  checks: { id: string; code: string; message: string }[];
}

/** What the server has said, so echoes and outputs can be checked. Emptied by the server's reset. */
export class Issued {
  readonly responses = new Set<string>();
  readonly reasoning = new Map<string, { followedBy: string | null }>();
  /** By call_id. */
  readonly calls = new Map<string, IssuedCall>();
  private counter = 0;

  next(prefix: string): string {
    return `${prefix}_scripted_${++this.counter}`;
  }

  clear(): void {
    this.responses.clear();
    this.reasoning.clear();
    this.calls.clear();
    this.counter = 0;
  }
}

const problem = (message: string, param: string | null = null, code: string | null = null): RequestProblem => ({ message, param, code });

function checkTools(tools: ResponsesRequest["tools"], truncation: string | null | undefined): RequestProblem | undefined {
  let computer = false;
  for (const [i, tool] of (tools ?? []).entries()) {
    const at = `tools[${i}]`;
    if (tool.type === "computer_use_preview") {
      computer = true;
      for (const field of ["display_width", "display_height"]) {
        const value = tool[field];
        if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
          return problem(`Invalid '${at}.${field}': expected a positive integer, got ${JSON.stringify(value)}.`, `${at}.${field}`);
        }
      }
      if (typeof tool.environment !== "string" || !ENVIRONMENTS.includes(tool.environment)) {
        return problem(`Invalid '${at}.environment': expected one of ${ENVIRONMENTS.join(", ")}.`, `${at}.environment`);
      }
    } else if (tool.type === "function") {
      if (tool.function !== undefined) {
        return problem(`Unknown parameter: '${at}.function'. Responses API function tools put name and parameters at the top level.`, `${at}.function`, "unknown_parameter");
      }
      if (typeof tool.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) {
        return problem(`Invalid '${at}.name': a function tool needs a name of letters, digits, _ and -.`, `${at}.name`);
      }
    } else {
      return problem(`Invalid value: '${tool.type}'. Supported tool types here are 'computer_use_preview' and 'function'.`, `${at}.type`, "invalid_value");
    }
  }
  if (computer && truncation !== "auto") {
    return problem("The computer use tool requires 'truncation' to be set to 'auto'.", "truncation");
  }
  return undefined;
}

const isDataImage = (url: unknown): boolean => typeof url === "string" && /^data:image\/(png|jpeg|webp|gif);base64,./.test(url);

function checkMessage(item: Item, at: string): RequestProblem | undefined {
  const role = item.role;
  if (role !== "user" && role !== "developer" && role !== "system" && role !== "assistant") {
    return problem(`Invalid value for '${at}.role': ${JSON.stringify(role)}.`, `${at}.role`);
  }
  const content = item.content;
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content)) return problem(`Missing required parameter: '${at}.content'.`, `${at}.content`);
  for (const [j, part] of (content as Record<string, unknown>[]).entries()) {
    const where = `${at}.content[${j}]`;
    const type = part?.type;
    if (type === "input_text" || type === "output_text") {
      if (typeof part.text !== "string") return problem(`Missing required parameter: '${where}.text'.`, `${where}.text`);
    } else if (type === "input_image") {
      if (!isDataImage(part.image_url)) return problem(`Invalid '${where}.image_url': expected a base64 data URL of an image.`, `${where}.image_url`);
    } else if (type !== "refusal") {
      return problem(`Invalid value: ${JSON.stringify(type)} at '${where}.type'. Expected input_text, input_image or output_text.`, `${where}.type`);
    }
  }
  return undefined;
}

/** Every rule on `input`, in order; the first broken one is the answer. */
function checkInput(items: Item[], issued: Issued): RequestProblem | undefined {
  const answered = new Set<string>();
  const seenCalls = new Set<string>();
  for (const [i, item] of items.entries()) {
    const at = `input[${i}]`;
    const type = item.type ?? "message";
    switch (type) {
      case "message": {
        const bad = checkMessage(item, at);
        if (bad !== undefined) return bad;
        break;
      }
      case "reasoning": {
        const id = String(item.id);
        const known = issued.reasoning.get(id);
        if (known === undefined) return problem(`Item with id '${id}' not found.`, at);
        const next = items[i + 1];
        if (known.followedBy !== null && next?.id !== known.followedBy) {
          return problem(`Item '${id}' of type 'reasoning' was provided without its required following item.`, at);
        }
        break;
      }
      case "computer_call":
      case "function_call": {
        const callId = String(item.call_id);
        const call = issued.calls.get(callId);
        if (call === undefined || call.kind !== type) return problem(`No ${type.replace("_", " ")} with call_id '${callId}' was issued.`, `${at}.call_id`);
        if (call.reasoningId !== null && items[i - 1]?.id !== call.reasoningId) {
          return problem(`Item '${String(item.id)}' of type '${type}' was provided without its required 'reasoning' item: '${call.reasoningId}'.`, at);
        }
        seenCalls.add(callId);
        break;
      }
      case "computer_call_output": {
        const callId = String(item.call_id);
        const call = issued.calls.get(callId);
        if (call === undefined || call.kind !== "computer_call") return problem(`No computer call found with call_id '${callId}'.`, `${at}.call_id`);
        if (!seenCalls.has(callId)) return problem(`The output for call_id '${callId}' comes before its computer_call in the input.`, at);
        const output = item.output as Record<string, unknown> | undefined;
        if (output?.type !== "computer_screenshot") {
          return problem(`Invalid value: ${JSON.stringify(output?.type)} at '${at}.output.type'. Expected 'computer_screenshot'.`, `${at}.output.type`);
        }
        if (!isDataImage(output.image_url)) return problem(`Invalid '${at}.output.image_url': expected a base64 data URL of an image.`, `${at}.output.image_url`);
        if (item.current_url !== undefined && typeof item.current_url !== "string") {
          return problem(`Invalid type for '${at}.current_url': expected a string.`, `${at}.current_url`);
        }
        const acked = item.acknowledged_safety_checks ?? [];
        if (!Array.isArray(acked)) return problem(`Invalid type for '${at}.acknowledged_safety_checks': expected an array.`, `${at}.acknowledged_safety_checks`);
        const ackedIds = new Set<string>();
        for (const [j, check] of (acked as Record<string, unknown>[]).entries()) {
          const sent = call.checks.find((c) => c.id === check?.id);
          if (sent === undefined) {
            return problem(`Safety check '${String(check?.id)}' was not raised for call_id '${callId}'.`, `${at}.acknowledged_safety_checks[${j}].id`);
          }
          ackedIds.add(sent.id);
        }
        if (call.checks.some((c) => !ackedIds.has(c.id))) return problem("Computer tool has unacknowledged safety check.", `${at}.acknowledged_safety_checks`);
        answered.add(callId);
        break;
      }
      case "function_call_output": {
        const callId = String(item.call_id);
        const call = issued.calls.get(callId);
        if (call === undefined || call.kind !== "function_call") return problem(`No function call found with call_id '${callId}'.`, `${at}.call_id`);
        if (!seenCalls.has(callId)) return problem(`The output for call_id '${callId}' comes before its function_call in the input.`, at);
        if (typeof item.output !== "string") return problem(`Invalid type for '${at}.output': expected a string.`, `${at}.output`);
        answered.add(callId);
        break;
      }
      default:
        return problem(`Invalid value: '${type}' at '${at}.type'.`, `${at}.type`, "invalid_value");
    }
  }
  const unanswered = [...seenCalls].find((id) => !answered.has(id));
  if (unanswered !== undefined) {
    const kind = issued.calls.get(unanswered)!.kind === "computer_call" ? "computer call" : "function call";
    return problem(`No tool output found for ${kind} ${unanswered}.`, "input");
  }
  return undefined;
}

/** The request, or what OpenAI would refuse it for. */
export function parseResponsesRequest(body: unknown, issued: Issued): { ok: true; request: ResponsesRequest } | { ok: false; problem: RequestProblem } {
  const parsed = ResponsesRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "body" : issue.path.join(".");
    return { ok: false, problem: problem(`invalid responses request: ${where}: ${issue?.message ?? "invalid"}`, where) };
  }
  const request = parsed.data;
  if (request.stream === true) return { ok: false, problem: problem("The scripted model answers /v1/responses without streaming; send stream: false.", "stream") };
  if (request.previous_response_id != null) {
    const known = issued.responses.has(request.previous_response_id);
    const said = known ? "is not supported by the scripted model (resend the history instead)" : "was not found";
    return { ok: false, problem: problem(`Previous response with id '${request.previous_response_id}' ${said}.`, "previous_response_id") };
  }
  const summary = request.reasoning?.summary;
  if (summary != null && summary !== "concise") {
    return { ok: false, problem: problem(`Unsupported value: 'reasoning.summary' does not support '${summary}' with this model. Supported values are: 'concise'.`, "reasoning.summary", "unsupported_value") };
  }
  const bad = checkTools(request.tools, request.truncation) ?? (typeof request.input === "string" ? undefined : checkInput(request.input, issued));
  return bad === undefined ? { ok: true, request } : { ok: false, problem: bad };
}

// ---------- the chat-shaped view, for turn matching and `expect` ----------

function partsOf(content: unknown): ChatMessage["content"] {
  if (typeof content === "string") return content;
  return (Array.isArray(content) ? (content as Record<string, unknown>[]) : []).map((part) =>
    part.type === "input_image" ? { type: "image_url", image_url: { url: part.image_url } } : { type: "text", text: typeof part.text === "string" ? part.text : "" },
  );
}

/**
 * The request as chat messages: instructions are a system message, messages keep their role,
 * a computer_call_output is a tool message holding its screenshot, a function_call_output a tool
 * message holding its text. The computer tool is offered as `computer_use_preview`.
 */
export function chatView(request: ResponsesRequest): ChatRequest {
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: "system", content: request.instructions });
  const items = typeof request.input === "string" ? [{ role: "user", content: request.input } as Item] : request.input;
  for (const item of items) {
    const type = item.type ?? "message";
    if (type === "message") messages.push({ role: String(item.role), content: partsOf(item.content) });
    else if (type === "computer_call_output") {
      const output = item.output as { image_url?: unknown } | undefined;
      messages.push({ role: "tool", content: [{ type: "image_url", image_url: { url: output?.image_url } }] });
    } else if (type === "function_call_output") messages.push({ role: "tool", content: String(item.output) });
  }
  const tools = (request.tools ?? []).map((tool) => ({ type: "function", function: { name: tool.type === "function" ? String(tool.name) : tool.type } }));
  return { model: request.model, messages, tools };
}

/** The computer_call_output answering the last computer call, if the input ends with one. */
function lastComputerOutput(request: ResponsesRequest): Item | undefined {
  if (typeof request.input === "string") return undefined;
  return [...request.input].reverse().find((item) => item.type === "computer_call_output");
}

/** The Responses-only parts of `expect`, as phrases that follow "expected the request to". */
export function responsesViolations(expect: Expect | undefined, request: ResponsesRequest): string[] {
  if (expect === undefined) return [];
  const violations: string[] = [];
  const last = lastComputerOutput(request);
  if (expect.currentUrl !== undefined) {
    const url = last?.current_url;
    if (typeof url !== "string" || !url.includes(expect.currentUrl)) {
      violations.push(`send current_url containing ${JSON.stringify(expect.currentUrl)} with the last computer_call_output, got ${url === undefined ? "none" : JSON.stringify(url)}`);
    }
  }
  if (expect.acknowledged !== undefined) {
    const acked = ((last?.acknowledged_safety_checks ?? []) as { code?: unknown }[]).map((c) => String(c.code));
    const missing = expect.acknowledged.filter((code) => !acked.includes(code));
    if (missing.length > 0 || (expect.acknowledged.length === 0 && acked.length > 0)) {
      violations.push(`acknowledge ${expect.acknowledged.length === 0 ? "no safety check" : expect.acknowledged.join(", ")} in the last computer_call_output, got ${acked.length === 0 ? "none" : acked.join(", ")}`);
    }
  }
  return violations;
}

// ---------- the answer ----------

export interface ResponsesAnswerIds {
  issued: Issued;
  nextCallId: () => string;
}

/** Roughly what a tokenizer would say; tests that care set `usage` on the turn. */
const estimate = (chars: number): number => Math.ceil(chars / 4);

/**
 * The `response` object a turn answers with: reasoning (summary), a message (text or refusal),
 * a computer_call (with its pending safety checks) and function calls, in that order.
 */
export function responsesBody(turn: Turn, text: string | undefined, request: ResponsesRequest, view: ChatRequest, images: number, ids: ResponsesAnswerIds): Record<string, unknown> {
  const { issued } = ids;
  const responseId = issued.next("resp");
  const output: Record<string, unknown>[] = [];
  let reasoningId: string | null = null;
  if (turn.reasoning !== undefined) {
    reasoningId = issued.next("rs");
    output.push({ type: "reasoning", id: reasoningId, summary: turn.reasoning === "" ? [] : [{ type: "summary_text", text: turn.reasoning }] });
  }
  if (text !== undefined || turn.refusal !== undefined) {
    const content = [
      ...(text === undefined ? [] : [{ type: "output_text", text, annotations: [] }]),
      ...(turn.refusal === undefined ? [] : [{ type: "refusal", refusal: turn.refusal }]),
    ];
    output.push({ type: "message", id: issued.next("msg"), role: "assistant", status: "completed", content });
  }
  // Only the first call carries the reasoning: OpenAI pairs a reasoning item with the item after it.
  const pairedTo = (): string | null => (output.length > 0 && output.at(-1)!.type === "reasoning" ? reasoningId : null);
  if (turn.computerCall !== undefined) {
    const callId = ids.nextCallId();
    const checks = (turn.computerCall.pendingSafetyChecks ?? []).map((check) => ({ id: issued.next("cu_sc"), code: check.code, message: check.message }));
    issued.calls.set(callId, { kind: "computer_call", reasoningId: pairedTo(), checks });
    output.push({ type: "computer_call", id: issued.next("cu"), call_id: callId, action: turn.computerCall.action, pending_safety_checks: checks, status: "completed" });
  }
  for (const call of turn.toolCalls ?? []) {
    const callId = ids.nextCallId();
    issued.calls.set(callId, { kind: "function_call", reasoningId: pairedTo(), checks: [] });
    const args = typeof call.args === "string" ? call.args : (JSON.stringify(call.args ?? {}) ?? "{}");
    output.push({ type: "function_call", id: issued.next("fc"), call_id: callId, name: call.name, arguments: args, status: "completed" });
  }
  if (reasoningId !== null) issued.reasoning.set(reasoningId, { followedBy: (output[1]?.id as string | undefined) ?? null });
  issued.responses.add(responseId);

  const promptChars = view.messages.reduce((sum, m) => sum + (typeof m.content === "string" ? m.content.length : (m.content ?? []).reduce((s, p) => s + (typeof p.text === "string" ? p.text.length : 0), 0)), 0);
  const completionChars = JSON.stringify(output).length;
  const input = turn.usage?.prompt_tokens ?? estimate(promptChars) + 85 * images;
  const outputTokens = turn.usage?.completion_tokens ?? estimate(completionChars);
  const incomplete = turn.finishReason === "length";
  return {
    id: responseId,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? "incomplete" : "completed",
    error: null,
    incomplete_details: incomplete ? { reason: "max_output_tokens" } : null,
    instructions: request.instructions ?? null,
    model: request.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: request.reasoning ?? null,
    store: true,
    tools: request.tools ?? [],
    truncation: request.truncation ?? "disabled",
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + outputTokens,
    },
  };
}

/**
 * The input as logged: image data URLs become `[image N bytes]`, so a request log of a browsing
 * run stays small enough to fetch and print in a failing test.
 */
export function redactInput(input: ResponsesRequest["input"]): unknown {
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return /^data:image\//.test(value) ? `[image ${imageBytes(value)} bytes]` : value;
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(input);
}
