import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { classifyResponsesError, ResponseFailedError } from "./responses";

const ctx = { role: "browser" as const, model: "computer-use-preview", baseUrl: "http://127.0.0.1:9/v1", hasApiKey: true, attempts: 2 };

describe("classifyResponsesError", () => {
  it("a failed response is a retryable server error quoting the endpoint", () => {
    const error = classifyResponsesError(new ResponseFailedError("The model crashed."), ctx);
    expect(error).toMatchObject({ kind: "server_error", retryable: true, role: "browser", model: "computer-use-preview", attempts: 2 });
    expect(error.message).toBe('The model endpoint at http://127.0.0.1:9/v1 reported that the response failed: "The model crashed.".');
  });

  it("a 404 also says how to browse without the Responses API; anything else is classified like a chat call", () => {
    const status = (statusCode: number, body = "{}") =>
      new APICallError({ message: "x", url: `${ctx.baseUrl}/responses`, requestBodyValues: {}, statusCode, responseBody: body, responseHeaders: {} });
    const missing = classifyResponsesError(status(404), ctx);
    expect(missing).toMatchObject({ kind: "unknown_model", httpStatus: 404, retryable: false });
    expect(missing.message).toMatch(/\(404\)\..* If the endpoint has no Responses API, set ARGUS_BROWSER_API=chat to browse over Chat Completions\.$/);
    expect(classifyResponsesError(status(429), ctx)).toMatchObject({ kind: "rate_limited", retryable: true });
    expect(classifyResponsesError(status(401), ctx)).toMatchObject({ kind: "auth" });
    expect(classifyResponsesError(new SyntaxError("Unexpected token <"), ctx)).toMatchObject({ kind: "server_error", retryable: true, message: expect.stringContaining("not valid JSON") });
  });
});
