import { APICallError, JSONParseError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import { classifyModelError, refusesTools, type ModelCallContext } from "./classify-error";
import { ModelError } from "./errors";

const ctx: ModelCallContext = {
  role: "planner",
  model: "gpt-x",
  baseUrl: "http://127.0.0.1:9999/v1",
  hasApiKey: true,
  timeoutMs: 120_000,
};

function apiError(statusCode: number | undefined, body?: string, headers: Record<string, string> = {}, cause?: unknown) {
  return new APICallError({
    message: "request failed",
    url: "http://127.0.0.1:9999/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: body,
    cause,
  });
}

const openAIBody = (message: string, code: string | null = null) =>
  JSON.stringify({ error: { message, type: "invalid_request_error", code } });

/** What undici throws when a socket dies: TypeError("terminated") caused by a SocketError. */
function socketClosed(): TypeError {
  const socketError = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET", name: "SocketError" });
  return new TypeError("terminated", { cause: socketError });
}

describe("classifyModelError", () => {
  it("401 is an auth error that names the variable, and is not retried", () => {
    const e = classifyModelError(apiError(401, openAIBody("Incorrect API key provided")), ctx);
    expect(e).toBeInstanceOf(ModelError);
    expect(e.kind).toBe("auth");
    expect(e.message).toBe("The model endpoint rejected the API key (401). Check OPENAI_API_KEY.");
    expect(e.retryable).toBe(false);
    expect(e.httpStatus).toBe(401);
    expect(e.code).toBe("unavailable:model");
    expect(isArgusError(e)).toBe(true);
  });

  it("401 without a configured key asks for one", () => {
    const e = classifyModelError(apiError(401), { ...ctx, hasApiKey: false });
    expect(e.message).toBe("The model endpoint at http://127.0.0.1:9999/v1 requires an API key (401). Set OPENAI_API_KEY.");
  });

  it("403 is auth too, with the provider's words", () => {
    const e = classifyModelError(apiError(403, openAIBody("Project does not have access")), ctx);
    expect(e.kind).toBe("auth");
    expect(e.message).toContain("'gpt-x'");
    expect(e.message).toContain('"Project does not have access"');
  });

  it("404 names the model, the endpoint and the role's variable", () => {
    const e = classifyModelError(apiError(404, openAIBody("The model does not exist")), ctx);
    expect(e.kind).toBe("unknown_model");
    expect(e.message).toMatch(/^The model 'gpt-x' does not exist on http:\/\/127\.0\.0\.1:9999\/v1 \(404\)\. Check ARGUS_MODEL_PLANNER/);
    expect(e.retryable).toBe(false);
  });

  it("429 is retryable, carries Retry-After, and counts retries in the message", () => {
    const first = classifyModelError(apiError(429, openAIBody("Rate limit reached"), { "retry-after": "2" }), ctx);
    expect(first).toMatchObject({ kind: "rate_limited", retryable: true, retryAfterMs: 2000 });
    expect(first.message).toBe("The model endpoint is rate limiting requests (429).");
    const last = classifyModelError(apiError(429), { ...ctx, attempts: 4 });
    expect(last.message).toBe("The model endpoint is rate limiting requests (429) and still was after 3 retries.");
  });

  it("429 for an exhausted quota is not retried", () => {
    const e = classifyModelError(apiError(429, openAIBody("You exceeded your current quota", "insufficient_quota")), ctx);
    expect(e.kind).toBe("rate_limited");
    expect(e.retryable).toBe(false);
    expect(e.message).toMatch(/out of quota/);
  });

  it("context length: 413, or a 400 that says so, is never retried", () => {
    const big = classifyModelError(apiError(413, "Request Entity Too Large"), ctx);
    expect(big.kind).toBe("context_too_long");
    const body = openAIBody("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", "context_length_exceeded");
    const e = classifyModelError(apiError(400, body), ctx);
    expect(e.kind).toBe("context_too_long");
    expect(e.retryable).toBe(false);
    expect(e.code).toBe("payload_too_large:model");
    expect(e.message).toMatch(/too long for the model 'gpt-x'/);
  });

  it("another 4xx is a refused request, not retried", () => {
    const e = classifyModelError(apiError(400, openAIBody("temperature must be at most 2")), ctx);
    expect(e.kind).toBe("bad_request");
    expect(e.retryable).toBe(false);
    expect(e.message).toContain("temperature must be at most 2");
  });

  it("a server without tool calling is told apart, with the setting that fixes it", () => {
    const said = [
      "registry.ollama.ai/library/llava:latest does not support tools",
      '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      "tools param requires --jinja flag",
      "tools are not supported by this model",
    ];
    for (const text of said) {
      const e = classifyModelError(apiError(400, openAIBody(text)), ctx);
      expect(e.kind, text).toBe("tools_unsupported");
      expect(e.retryable).toBe(false);
      expect(e.message).toContain(`ARGUS_TOOL_PROTOCOL_${ctx.role.toUpperCase()}=text`);
    }
    expect(refusesTools("the image is too large")).toBe(false);
    expect(refusesTools("tool_choice must be one of none, auto")).toBe(false);
  });

  it("408 and 5xx are retryable", () => {
    expect(classifyModelError(apiError(408), ctx)).toMatchObject({ kind: "timeout", retryable: true });
    const e = classifyModelError(apiError(503, openAIBody("overloaded")), { ...ctx, attempts: 4 });
    expect(e).toMatchObject({ kind: "server_error", retryable: true });
    expect(e.message).toMatch(/internal error \(503\)\. 4 attempts failed\./);
  });

  it("unwraps the SDK's RetryError", () => {
    const retry = new RetryError({ message: "failed after 3 attempts", reason: "maxRetriesExceeded", errors: [apiError(500), apiError(404)] });
    expect(classifyModelError(retry, ctx).kind).toBe("unknown_model");
  });

  it("a TimeoutError is ours (timeout); an AbortError is the caller's (cancelled)", () => {
    const timeout = classifyModelError(new DOMException("signal timed out", "TimeoutError"), { ...ctx, attempts: 3 });
    expect(timeout).toMatchObject({ kind: "timeout", retryable: true });
    expect(timeout.message).toBe("The model did not answer within 120 s (3 attempts).");
    const cancel = classifyModelError(new DOMException("This operation was aborted", "AbortError"), ctx);
    expect(cancel).toMatchObject({ kind: "cancelled", retryable: false, code: "conflict:model" });
  });

  it("connection refused is unreachable, naming the endpoint and the cause", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9999"), { code: "ECONNREFUSED" });
    const raw = new TypeError("fetch failed", { cause: refused });
    const e = classifyModelError(raw, ctx);
    expect(e).toMatchObject({ kind: "unreachable", retryable: true });
    expect(e.message).toBe("Could not reach the model endpoint at http://127.0.0.1:9999/v1: connect ECONNREFUSED 127.0.0.1:9999.");
    // The same failure after the SDK wrapped it.
    const wrapped = apiError(undefined, undefined, {}, refused);
    expect(classifyModelError(wrapped, ctx).message).toContain("ECONNREFUSED");
  });

  it("a socket closed mid-reply is a retryable server error", () => {
    const wrapped = apiError(200, undefined, {}, socketClosed());
    const e = classifyModelError(wrapped, ctx);
    expect(e).toMatchObject({ kind: "server_error", retryable: true });
    expect(e.message).toMatch(/closed the connection before the reply was complete \(other side closed\)/);
    expect(classifyModelError(socketClosed(), ctx).kind).toBe("server_error");
  });

  it("a body that is not JSON is a retryable server error", () => {
    const parse = new JSONParseError({ text: "<html>", cause: new SyntaxError("Unexpected token <") });
    const e = classifyModelError(parse, ctx);
    expect(e).toMatchObject({ kind: "server_error", retryable: true });
    expect(e.message).toBe("The model endpoint at http://127.0.0.1:9999/v1 answered something that is not valid JSON.");
  });

  it("an error object sent inside the stream is a server error", () => {
    const e = classifyModelError({ message: "upstream overloaded", type: "server_error" }, ctx);
    expect(e).toMatchObject({ kind: "server_error", retryable: true });
    expect(e.message).toContain("upstream overloaded");
  });

  it("returns a ModelError unchanged", () => {
    const original = new ModelError("bad_output", "x");
    expect(classifyModelError(original, ctx)).toBe(original);
  });
});
