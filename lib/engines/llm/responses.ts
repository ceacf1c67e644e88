/**
 * One request to the Responses API (`POST {baseURL}/responses`), for the browsing agent when its
 * model is OpenAI's computer-use model (peers.md §A.5). Not streamed: a computer-use turn is one
 * action, so there is nothing to show while it is written.
 *
 * Only the HTTP attempt lives here. Retries, the per-attempt timeout and the typed errors are the
 * chat calls' own (retry.ts, classify-error.ts): a failed status is thrown as the AI SDK's
 * APICallError, which classification already reads (429 with Retry-After, 5xx, 401, 404…).
 */
import { APICallError } from "ai";
import { z } from "zod";
import { classifyModelError, type ModelCallContext } from "./classify-error";
import { providerMessage } from "./error-response";
import { ModelError } from "./errors";
import { normalizeUsage, type Usage } from "./usage";

/** An output item: `reasoning`, `message`, `computer_call`, `function_call`, or one Argus does not know. */
export const ResponseItemSchema = z.looseObject({ type: z.string() });
export type ResponseItem = z.infer<typeof ResponseItemSchema>;

const ResponseBodySchema = z.looseObject({
  id: z.string(),
  status: z.string().nullish(),
  output: z.array(ResponseItemSchema),
  error: z.looseObject({ message: z.string().nullish(), code: z.string().nullish() }).nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  usage: z.looseObject({}).nullish(),
});

export interface ResponsesReply {
  id: string;
  /** `completed`, or `incomplete` (e.g. max_output_tokens); a `failed` response is thrown instead. */
  status: string;
  output: ResponseItem[];
  /** Why an incomplete response stopped, when it said. */
  incompleteReason?: string;
  usage: Usage;
}

export interface ResponsesTarget {
  baseUrl: string;
  apiKey: string | null;
}

/** A 200 whose response has `status: "failed"`: the model broke down while answering. */
export class ResponseFailedError extends Error {
  constructor(readonly said: string) {
    super(`response failed: ${said}`);
    this.name = "ResponseFailedError";
  }
}

/** Chat calls' classification, plus the one failure only the Responses API has. */
export function classifyResponsesError(error: unknown, ctx: ModelCallContext): ModelError {
  if (error instanceof ResponseFailedError) {
    return new ModelError("server_error", `The model endpoint at ${ctx.baseUrl} reported that the response failed: "${error.said}".`, {
      role: ctx.role,
      model: ctx.model,
      attempts: ctx.attempts ?? 1,
      retryable: true,
      cause: error,
    });
  }
  const classified = classifyModelError(error, ctx);
  // Many OpenAI-compatible servers have no /responses at all: say what else to try.
  if (classified.kind !== "unknown_model") return classified;
  return new ModelError(
    "unknown_model",
    `${classified.message} If the endpoint has no Responses API, set ARGUS_BROWSER_API=chat to browse over Chat Completions.`,
    { role: classified.role, model: classified.model, httpStatus: classified.httpStatus, attempts: classified.attempts, cause: error },
  );
}

/** Headers of a fetch Response as the plain record APICallError (and Retry-After parsing) expect. */
function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

/**
 * One attempt: the body is sent as is (the caller sets `model`). A 4xx/5xx is thrown as an
 * APICallError, a body that is not a Responses object as a SyntaxError-like failure (not JSON), a
 * `failed` response as a retryable server error with the provider's words.
 */
export async function postResponses(target: ResponsesTarget, body: Record<string, unknown>, signal: AbortSignal): Promise<ResponsesReply> {
  const url = `${target.baseUrl}/responses`;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(target.apiKey === null ? {} : { authorization: `Bearer ${target.apiKey}` }) },
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  if (!response.ok) {
    throw new APICallError({
      message: providerMessage(text) ?? response.statusText,
      url,
      requestBodyValues: { model: body.model },
      statusCode: response.status,
      responseHeaders: headerRecord(response.headers),
      responseBody: text,
      isRetryable: response.status === 408 || response.status === 429 || response.status >= 500,
    });
  }
  // A proxy's HTML page or a cut body: SyntaxError, which classification calls "not valid JSON".
  const parsed = ResponseBodySchema.safeParse(JSON.parse(text) as unknown);
  if (!parsed.success) throw new SyntaxError(`not a Responses API response: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const reply = parsed.data;
  if (reply.status === "failed") throw new ResponseFailedError(reply.error?.message ?? "no reason given");
  return {
    id: reply.id,
    status: reply.status ?? "completed",
    output: reply.output,
    ...(reply.incomplete_details?.reason == null ? {} : { incompleteReason: reply.incomplete_details.reason }),
    usage: normalizeUsage(reply.usage),
  };
}
