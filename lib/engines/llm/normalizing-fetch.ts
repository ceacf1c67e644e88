/**
 * A `fetch` for the AI SDK provider that passes every request through and rewrites the answer's
 * known server quirks (normalize-chunks.ts) on the way in: line by line for a stream, whole for
 * a JSON body. Anything it cannot read is passed on untouched, so the SDK reports it as before.
 */
import { normalizeCompletion, normalizeSseLine } from "./normalize-chunks";

/** The rewritten body has another length; the body is already decoded. */
function headersFor(response: Response): Headers {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return headers;
}

function normalizeStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        if (lines.length > 0) controller.enqueue(encoder.encode(lines.map(normalizeSseLine).join("\n") + "\n"));
      },
      flush(controller) {
        pending += decoder.decode();
        if (pending !== "") controller.enqueue(encoder.encode(normalizeSseLine(pending)));
      },
    }),
  );
}

export function normalizingFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || response.body === null) return response;
    if (type.includes("text/event-stream")) {
      return new Response(normalizeStream(response.body), { status: response.status, statusText: response.statusText, headers: headersFor(response) });
    }
    if (!type.includes("json")) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, statusText: response.statusText, headers: headersFor(response) });
    }
    const fixed = normalizeCompletion(body) ? JSON.stringify(body) : text;
    return new Response(fixed, { status: response.status, statusText: response.statusText, headers: headersFor(response) });
  };
}
