import type { ModelRole } from "@/lib/foundation/config";
import { EMPTY_DRAFT, type ReplyDraft } from "./draft";
import { ModelError } from "./errors";
import type { ChatRequest, ToolCallRequest, ToolCallResult } from "./model-requests";
import type { ToolProtocolChoice } from "./protocol-choice";
import { readReplyCalls, type ToolProtocol } from "./reply-calls";
import type { ChatReply } from "./stream-reply";
import { textProtocolInstructions } from "./tagged-calls";
import { splitThinking } from "./think-in-text";
import { checkToolReply, ignoredCallsNotice, repairMessages } from "./tool-call";
import type { ModelHabit } from "./tool-call-habits";
import { draftTags, type ToolCallOf, type ToolSpecs } from "./tool-schema";
import { sumUsage, type Usage } from "./usage";

/**
 * callTool's loop (DESIGN §4): asks for exactly one call of one of the tools, made natively or
 * written as tagged text (the role's tool protocol); an unusable reply is shown back to the model
 * with a correction, at most `maxRepairs` times, then it is `bad_output`. Under `auto`, a server
 * that rejects tools or a model that answers in tags moves the role to text here.
 */

const DEFAULT_MAX_REPAIRS = 2;

/** What the loop uses of the model client, for one role. */
export interface ToolCallHost {
  /** One reply from the role's model (ModelClient.chat, retries included). */
  chat(request: ChatRequest): Promise<ChatReply>;
  protocols: ToolProtocolChoice;
  /** The role's model name. */
  model: string;
  maxResponseChars: number;
}

export async function callToolWithRepairs<T extends ToolSpecs>(host: ToolCallHost, role: ModelRole, request: ToolCallRequest<T>): Promise<ToolCallResult<T>> {
  const maxRepairs = request.maxRepairs ?? DEFAULT_MAX_REPAIRS;
  const maxResponseChars = request.maxResponseChars ?? host.maxResponseChars;
  const model = host.model;
  const messages = [...request.messages];
  const usages: Usage[] = [];
  let protocol = host.protocols.current(role, model);
  const habits: ModelHabit[] = [];
  // Drafts of a tagged reply are read by the offered tools' tags (tool-schema.ts's `draft`).
  const tags = draftTags(request.tools);
  const onDraft = request.onDraft && ((draft: ReplyDraft) => request.onDraft!({ ...draft, tags }));
  // Plain text where a call was due is corrected once: a model that answers in text twice will go on doing so.
  let textOnlyCorrected = false;
  for (let attempt = 1; ; ) {
    let reply: ChatReply;
    try {
      reply = await host.chat({ ...request, ...protocolRequest(request, protocol), onDraft, messages, maxResponseChars });
    } catch (error) {
      // A server without tool calling says so up front; under auto that is a switch, not a failure.
      if (protocol === "native" && error instanceof ModelError && error.kind === "tools_unsupported" && host.protocols.switchToText(role, model, "tools_rejected")) {
        protocol = "text";
        continue;
      }
      throw withUsage(error, usages);
    }
    usages.push(reply.usage);
    const read = readReplyCalls(reply, request.tools);
    for (const habit of read.habits) if (!habits.includes(habit)) habits.push(habit);
    if (protocol === "native" && read.writtenAsText && host.protocols.switchToText(role, model, "answered_in_text")) protocol = "text";
    const verdict = checkToolReply(reply, read, request.tools, maxResponseChars, protocol);
    if (verdict.ok) {
      const notice = ignoredCallsNotice(verdict.name, verdict.ignored);
      // checkToolReply validated args with the schema of the tool `name`: the pair is a ToolCallOf<T>.
      const call = { name: verdict.name, args: verdict.args } as ToolCallOf<T>;
      return {
        ...call,
        text: reply.text,
        thinking: read.thinking,
        ...(notice === undefined ? {} : { notice }),
        protocol,
        usage: sumUsage(...usages),
        attempts: attempt,
        habits,
      };
    }
    if (verdict.kind === "no_call" && textOnlyCorrected) {
      const said = clipLine(splitThinking(reply.text).rest.trim() || reply.text.trim());
      throw new ModelError(
        "bad_output",
        `The ${role} model (${model}) answered in plain text instead of calling one of its tools (${Object.keys(request.tools).join(", ")}), twice in a row, even after being told to call one. It said: "${said}"`,
        { role, model, attempts: attempt, usage: sumUsage(...usages) },
      );
    }
    if (verdict.kind === "no_call") textOnlyCorrected = true;
    if (attempt > maxRepairs) {
      throw new ModelError(
        "bad_output",
        `The ${role} model (${model}) gave an unusable reply ${attempt} ${attempt === 1 ? "time" : "times in a row"}; the last time, ${verdict.problem}.`,
        { role, model, attempts: attempt, usage: sumUsage(...usages) },
      );
    }
    request.onDraft?.(EMPTY_DRAFT);
    request.onRestart?.({ reason: "repair", attempt, message: verdict.problem });
    messages.push(...repairMessages(reply, read, verdict));
    attempt++;
  }
}

/** Native: the tools go in the request. Text: they are described in the system prompt instead. */
export function protocolRequest(request: ToolCallRequest, protocol: ToolProtocol): Pick<ChatRequest, "system" | "tools"> {
  if (protocol === "native") return { system: request.system, tools: request.tools };
  const instructions = textProtocolInstructions(request.tools);
  return { system: request.system ? `${request.system}\n\n${instructions}` : instructions, tools: undefined };
}

/** What a model said, on one line and short enough for an error card. */
export function clipLine(text: string, limit = 300): string {
  const line = text.replace(/\s+/g, " ");
  return line.length <= limit ? line : `${line.slice(0, limit)}…`;
}

/** A transport failure mid-repair still spent the earlier replies' tokens; keep them on the error. */
export function withUsage(error: unknown, usages: Usage[]): unknown {
  if (!(error instanceof ModelError) || usages.length === 0) return error;
  return new ModelError(error.kind, error.message, {
    role: error.role,
    model: error.model,
    httpStatus: error.httpStatus,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    attempts: error.attempts,
    usage: sumUsage(...usages),
    cause: error.cause,
  });
}
