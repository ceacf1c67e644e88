/**
 * Reading an incoming Chat Completions request: just enough structure to match a turn, check
 * its `expect`, and log it. Parsing is loose on purpose (unknown fields pass through) because
 * the scripted model must accept whatever a real OpenAI-compatible client sends.
 */
import { z } from "zod";

const ContentPartSchema = z.looseObject({ type: z.string() });

const MessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(ContentPartSchema)]).nullish(),
});

const ChatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(MessageSchema),
  tools: z
    .array(z.looseObject({ type: z.string().optional(), function: z.looseObject({ name: z.string() }) }))
    .nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});

export type ChatRequest = z.infer<typeof ChatRequestSchema>;
export type ChatMessage = z.infer<typeof MessageSchema>;

/** Either the request, or a sentence saying what is wrong with the body. */
export function parseChatRequest(body: unknown): { ok: true; request: ChatRequest } | { ok: false; error: string } {
  const result = ChatRequestSchema.safeParse(body);
  if (result.success) return { ok: true, request: result.data };
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "body" : issue.path.join(".");
  return { ok: false, error: `invalid chat completion request: ${where}: ${issue?.message ?? "invalid"}` };
}

/** One piece of text in the request, with where it came from so mismatches can point at it. */
export interface TextSegment {
  message: number;
  role: string;
  text: string;
}

/** String contents and text parts of every message (system, user, assistant and tool results). */
export function textSegments(request: ChatRequest): TextSegment[] {
  const segments: TextSegment[] = [];
  request.messages.forEach((message, index) => {
    const { content } = message;
    if (typeof content === "string") {
      segments.push({ message: index, role: message.role, text: content });
      return;
    }
    for (const part of content ?? []) {
      if (part.type === "text" && typeof part.text === "string") {
        segments.push({ message: index, role: message.role, text: part.text });
      }
    }
  });
  return segments;
}

function isImagePart(part: { type: string }): boolean {
  return part.type === "image_url";
}

export function countImages(request: ChatRequest): number {
  let count = 0;
  for (const message of request.messages) {
    if (Array.isArray(message.content)) count += message.content.filter(isImagePart).length;
  }
  return count;
}

export function offeredToolNames(request: ChatRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.function.name);
}

/** Decoded size of a data URL's payload, or the URL's own length for a remote image. */
export function imageBytes(url: string): number {
  const comma = url.indexOf(",");
  if (!url.startsWith("data:") || comma < 0) return url.length;
  const payload = url.slice(comma + 1);
  if (!url.slice(0, comma).endsWith(";base64")) return payload.length;
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  return Math.floor((payload.length * 3) / 4) - padding;
}

function imageUrlOf(part: Record<string, unknown>): string {
  const imageUrl = part.image_url;
  if (typeof imageUrl === "string") return imageUrl;
  if (typeof imageUrl === "object" && imageUrl !== null) {
    const url = (imageUrl as { url?: unknown }).url;
    if (typeof url === "string") return url;
  }
  return "";
}

/**
 * Messages as logged: image parts become `{type: "image_url", bytes}` so a request log of a
 * vision conversation stays small enough to fetch and print in a failing test.
 */
export function redactImages(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((message) => {
    if (!Array.isArray(message.content)) return message;
    const content = message.content.map((part) =>
      isImagePart(part) ? { type: "image_url", bytes: imageBytes(imageUrlOf(part)) } : part,
    );
    return { ...message, content };
  });
}
