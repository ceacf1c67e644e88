/**
 * Performing a turn's `fault`: the failures a real provider produces (HTTP errors with
 * Retry-After, dropped connections, unparseable bodies, hangs), so the model layer's retry and
 * timeout handling is tested against the wire, not against a mocked client.
 */
import type { ServerResponse } from "node:http";
import { delay, isOpen, openAIError, sendJson, startSse, writeSse } from "./http";
import type { Fault } from "./scenario";

type StatusFault = Extract<Fault, { status: number }>;
export type ActiveFault = Exclude<Fault, { type: "slow" }>;

/** What OpenAI says for each status, so clients see the fields they would in production. */
const STATUS_DEFAULTS: Record<StatusFault["status"], { message: string; type: string; code: string | null }> = {
  400: { message: "Bad request", type: "invalid_request_error", code: null },
  401: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
  404: { message: "The model does not exist or you do not have access to it", type: "invalid_request_error", code: "model_not_found" },
  429: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" },
  500: { message: "The server had an error while processing your request", type: "server_error", code: null },
  503: { message: "The engine is currently overloaded, please try again later", type: "server_error", code: "service_unavailable" },
};

export interface FaultContext {
  res: ServerResponse;
  stream: boolean;
  /** The turn's normal stream, for faults that send a little before failing. */
  chunks: () => string[];
  /** Extra response headers (the matched turn), sent with whatever status goes out. */
  headers: Record<string, string>;
  timers: Set<NodeJS.Timeout>;
}

/** A short label for the request log, e.g. `429`, `close`, `stall 3000ms`. */
export function faultLabel(fault: ActiveFault): string {
  if (fault.type === undefined || fault.type === "status") return String(fault.status);
  return fault.type === "stall" ? `stall ${fault.ms}ms` : fault.type;
}

/** Perform the fault; resolves to the HTTP status sent, or 0 when no status line went out. */
export async function performFault(fault: ActiveFault, ctx: FaultContext): Promise<number> {
  const { res } = ctx;
  switch (fault.type) {
    case undefined:
    case "status": {
      const defaults = STATUS_DEFAULTS[fault.status];
      const headers: Record<string, string> = { ...ctx.headers };
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      const message = `${fault.message ?? defaults.message} (scripted fault)`;
      sendJson(res, fault.status, openAIError(message, defaults.type, fault.code ?? defaults.code), headers);
      return fault.status;
    }
    case "close": {
      if (!ctx.stream) {
        res.socket?.destroy();
        return 0;
      }
      startSse(res, ctx.headers);
      const first = ctx.chunks()[0];
      if (first !== undefined) await writeSse(res, first);
      res.socket?.destroy();
      return 200;
    }
    case "garbage": {
      if (ctx.stream) {
        startSse(res, ctx.headers);
        await writeSse(res, '{"id": "chatcmpl-garbage", "choices": [{"delta": <<not json>>');
        res.end("this line is not an SSE field\n\n");
      } else {
        res.writeHead(200, { "content-type": "application/json", ...ctx.headers });
        res.end('{"id": "chatcmpl-garbage", "choices": [ <<not json>>');
      }
      return 200;
    }
    case "stall": {
      let status = 0;
      if (ctx.stream && fault.midStream === true) {
        startSse(res, ctx.headers);
        for (const chunk of ctx.chunks().slice(0, 2)) await writeSse(res, chunk);
        status = 200;
      }
      await delay(fault.ms, ctx.timers, res);
      // Never answer: a stall exists to make the client's timeout fire.
      if (isOpen(res)) res.socket?.destroy();
      return status;
    }
  }
}
