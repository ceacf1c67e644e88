/**
 * Small node:http helpers for the scripted model: JSON bodies, OpenAI-shaped errors and SSE
 * writing. Kept apart from the routing so each piece reads on its own.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Requests carry base64 images; this is far above any real one and only stops runaways. */
const MAX_BODY_BYTES = 256 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** The error shape OpenAI (and so every OpenAI-compatible client) parses. */
export function openAIError(message: string, type: string, code: string | null): { error: Record<string, unknown> } {
  return { error: { message, type, param: null, code } };
}

/** Whether the client is still there to read what we write. */
export function isOpen(res: ServerResponse): boolean {
  return !res.destroyed && !res.writableEnded;
}

export function startSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...headers,
  });
}

/**
 * Write one `data:` event and wait until it has left (or drained), yielding a tick so chunks
 * reach the client as separate reads, the way a real model's stream does.
 */
export function writeSse(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (!isOpen(res)) return resolve();
    // A write to a socket the client just dropped may never call back; 'close' settles it.
    const done = (): void => {
      res.off("close", done);
      setImmediate(resolve);
    };
    res.once("close", done);
    res.write(`data: ${data}\n\n`, done);
  });
}

/**
 * Wait `ms`, or less if the client hangs up first (so the log line and the timer go with it).
 * Timers live in `timers` so closing the server cancels every pending wait.
 */
export function delay(ms: number, timers: Set<NodeJS.Timeout>, res?: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      timers.delete(timer);
      res?.off("close", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    timers.add(timer);
    res?.once("close", finish);
  });
}
