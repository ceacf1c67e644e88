/**
 * The scripted model (DESIGN §7): an OpenAI Chat Completions server on loopback that answers
 * from a scenario file instead of a model. Tests, and anyone without an API key, point the real
 * AI SDK client at it, so everything above the HTTP boundary runs exactly as in production.
 *
 * Routes: POST /v1/chat/completions, POST /v1/responses (the Responses API's computer tool,
 * non-streaming: responses.ts), GET /v1/models, and for tests in another process
 * GET /__requests, GET /__state, POST /__reset, POST /__scenario (swap in another scenario, for
 * browser tests that share one running server). Anything else is a 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { faultLabel, performFault } from "./faults";
import { delay, isOpen, openAIError, readBody, sendJson, startSse, writeSse } from "./http";
import { TurnQueue } from "./queue";
import { PROBE_HEADER, probeTurn, servedModels } from "./probe-answer";
import { countImages, offeredToolNames, parseChatRequest, redactImages, type ChatMessage } from "./request";
import { buildAnswer, completionBody, streamChunks, turnText } from "./response";
import { Issued, chatView, parseResponsesRequest, redactInput, responsesBody, responsesViolations } from "./responses";
import { loadScenario, parseScenario, type Dialect, type Expect, type Scenario, type Turn } from "./scenario";

export { DIALECTS, ScenarioError, loadScenario } from "./scenario";
export type { Dialect, Scenario, Turn } from "./scenario";

export interface LoggedRequest {
  /** Position in the log, from 0. */
  index: number;
  /** ISO time the request arrived. */
  at: string;
  /** Which API was called; absent for Chat Completions. */
  api?: "responses";
  /** null when the body was not a chat completion (or responses) request. */
  model: string | null;
  stream: boolean;
  /** The turn (counted from 1) that answered, including with a fault; null when none did. */
  matchedTurn: number | null;
  /** HTTP status sent; 0 when the connection was dropped before a status line. */
  status: number;
  /** Why the request was refused (mismatch, bad body, bad key). */
  error?: string;
  /** The fault performed, e.g. "429", "close", "stall 3000ms". */
  fault?: string;
  /** Whether an Authorization header was sent at all. */
  authorization: boolean;
  /** The request's messages with image parts replaced by `{type: "image_url", bytes}` (Responses: its chat view). */
  messages: ChatMessage[];
  /** Responses API: the request's `input` as sent, image data URLs replaced by `[image N bytes]`. */
  input?: unknown;
  tools?: string[];
  images: number;
  /** Paced turns: when each chunk of model output was written (ms since the epoch, sub-ms precise). */
  chunkTimes?: number[];
}

export interface ScriptedModelOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** When set, requests without `Authorization: Bearer <requireKey>` get 401 invalid_api_key. */
  requireKey?: string;
  /** One line per request: model, matched turn or the error. */
  log?: (line: string) => void;
  /** How the server speaks (default `openai`); a scenario's own `dialect` wins. */
  dialect?: Dialect;
}

export interface ScriptedModel {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  port: number;
  scenario: Scenario;
  /** Live request log; emptied by reset(). */
  requests: LoggedRequest[];
  remaining(): Record<string, number>;
  /** Rewind: every turn unused, fault counts and tool-call ids restarted, the log emptied. */
  reset(): void;
  /** Replace the scenario (validated) and rewind. */
  load(scenario: Scenario | unknown): void;
  close(): Promise<void>;
}

const MISMATCH_CODE = "scripted_model_mismatch";

/** A Chat Completions request cannot take a turn written for the Responses API. */
function responsesOnly(turn: Turn, expect: Expect | undefined): string[] {
  const only = [
    ...(turn.computerCall === undefined ? [] : ["computerCall"]),
    ...(expect?.currentUrl === undefined ? [] : ["expect.currentUrl"]),
    ...(expect?.acknowledged === undefined ? [] : ["expect.acknowledged"]),
  ];
  return only.length === 0 ? [] : [`be a Responses API request (POST /v1/responses), since the turn has ${only.join(", ")}`];
}

export async function startScriptedModel(
  scenarioOrPath: Scenario | string,
  opts: ScriptedModelOptions = {},
): Promise<ScriptedModel> {
  let scenario =
    typeof scenarioOrPath === "string" ? loadScenario(scenarioOrPath) : parseScenario(scenarioOrPath);
  let queue = new TurnQueue(scenario);
  const requests: LoggedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const log = opts.log ?? (() => {});
  let callCounter = 0;
  let completionCounter = 0;

  const dialect = (): Dialect => scenario.dialect ?? opts.dialect ?? "openai";
  const state = () => ({ scenario: scenario.name, dialect: dialect(), used: queue.used(), remaining: queue.remaining() });

  const issued = new Issued();

  function reset(): void {
    queue.reset();
    issued.clear();
    requests.length = 0;
    callCounter = 0;
    completionCounter = 0;
  }

  function load(next: unknown): void {
    scenario = parseScenario(next);
    queue = new TurnQueue(scenario);
    reset();
  }

  function logLine(entry: LoggedRequest): void {
    const who = `#${entry.index} ${entry.model ?? "(no model)"}${entry.stream ? " stream" : ""}`;
    const turn = entry.matchedTurn === null ? "" : ` turn ${entry.matchedTurn}`;
    const fault = entry.fault === undefined ? "" : ` fault ${entry.fault}`;
    const error = entry.error === undefined ? "" : ` ${entry.error}`;
    log(`${who} ->${turn}${fault} ${entry.status}${error}`);
  }

  /** A new entry in the request log, before anything about the request is known. */
  function logEntry(req: IncomingMessage, api?: LoggedRequest["api"]): LoggedRequest {
    const entry: LoggedRequest = {
      index: requests.length,
      at: new Date().toISOString(),
      ...(api === undefined ? {} : { api }),
      model: null,
      stream: false,
      matchedTurn: null,
      status: 0,
      authorization: req.headers.authorization !== undefined,
      messages: [],
      images: 0,
    };
    requests.push(entry);
    return entry;
  }

  /**
   * The request's JSON body, checked like the real APIs check it (the key, then the JSON); on
   * failure the request has been refused and the result is `undefined`. The body is read even
   * when refusing, so the client never sees a reset mid-upload.
   */
  async function readJsonBody(
    req: IncomingMessage,
    entry: LoggedRequest,
    refuse: (status: number, message: string, type: string, code: string | null) => void,
  ): Promise<{ body: unknown } | undefined> {
    const text = await readBody(req);
    if (opts.requireKey !== undefined && req.headers.authorization !== `Bearer ${opts.requireKey}`) {
      const sent = entry.authorization ? "a different key" : "no Authorization header";
      refuse(401, `Incorrect API key provided (scripted model requires a key; got ${sent})`, "invalid_request_error", "invalid_api_key");
      return undefined;
    }
    try {
      return { body: JSON.parse(text) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      refuse(400, `request body is not JSON: ${reason}`, "invalid_request_error", "invalid_json");
      return undefined;
    }
  }

  async function chatCompletions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = logEntry(req);
    const refuse = (status: number, message: string, type: string, code: string | null): void => {
      entry.status = status;
      entry.error = message;
      sendJson(res, status, openAIError(message, type, code));
    };

    try {
      const read = await readJsonBody(req, entry, refuse);
      if (!read) return;
      const body = read.body;
      const parsed = parseChatRequest(body);
      if (!parsed.ok) return refuse(400, parsed.error, "invalid_request_error", "invalid_request");
      const request = parsed.request;
      entry.model = request.model;
      entry.stream = request.stream === true;
      entry.messages = redactImages(request.messages);
      entry.images = countImages(request);
      if (request.tools != null) entry.tools = offeredToolNames(request);
      // What Ollama answers for a model without tool support; the turn stays unused for the retry.
      if (dialect() === "no-tools" && offeredToolNames(request).length > 0) {
        return refuse(400, `registry.ollama.ai/library/${request.model}:latest does not support tools`, "invalid_request_error", null);
      }

      const taken = queue.take(request, responsesOnly, req.headers[PROBE_HEADER] !== undefined);
      if (taken.kind === "mismatch") return refuse(400, taken.message, "invalid_request_error", MISMATCH_CODE);
      // A model check with no turn of its own is answered as a capable model would; no turn is used.
      const decision = taken.kind === "probe" ? { kind: "answer" as const, turn: probeTurn(request), turnNumber: 0, delayMs: 0 } : taken;
      if (taken.kind !== "probe") entry.matchedTurn = decision.turnNumber;

      const headers = { "x-scripted-turn": String(decision.turnNumber) };
      const includeUsage = request.stream_options?.include_usage === true;
      // Built lazily: a `times` fault should not burn tool-call ids it never sends.
      const answerFor = () =>
        buildAnswer(
          decision.turn,
          request,
          { completionId: `chatcmpl-scripted-${++completionCounter}`, nextCallId: () => `call_${++callCounter}` },
          dialect(),
        );

      if (decision.kind === "fault") {
        entry.fault = faultLabel(decision.fault);
        const chunks = () => streamChunks(answerFor(), includeUsage).map((chunk) => JSON.stringify(chunk.data));
        entry.status = await performFault(decision.fault, { res, stream: entry.stream, chunks, headers, timers });
        return;
      }

      if (decision.delayMs > 0) {
        entry.fault = `slow ${decision.delayMs}ms`;
        await delay(decision.delayMs, timers, res);
      }
      if (!isOpen(res)) return;
      const answer = answerFor();
      entry.status = 200;
      if (!entry.stream) return sendJson(res, 200, completionBody(answer), headers);
      startSse(res, headers);
      const pace = decision.turn.stream;
      if (pace !== undefined) entry.chunkTimes = [];
      for (const chunk of streamChunks(answer, includeUsage, pace?.chunkChars)) {
        if (pace !== undefined && chunk.timed) {
          if (entry.chunkTimes!.length > 0) await delay(pace.delayMs, timers, res);
          entry.chunkTimes!.push(performance.timeOrigin + performance.now());
        }
        await writeSse(res, JSON.stringify(chunk.data));
      }
      await writeSse(res, "[DONE]");
      res.end();
    } finally {
      logLine(entry);
    }
  }

  async function responses(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = logEntry(req, "responses");
    const refuse = (status: number, message: string, type: string, code: string | null, param: string | null = null): void => {
      entry.status = status;
      entry.error = message;
      sendJson(res, status, { error: { message, type, param, code } });
    };

    try {
      const read = await readJsonBody(req, entry, refuse);
      if (!read) return;
      const body = read.body;
      const raw = body as { model?: unknown; input?: unknown };
      if (typeof raw?.model === "string") entry.model = raw.model;
      if (raw?.input !== undefined) entry.input = redactInput(raw.input as never);
      const parsed = parseResponsesRequest(body, issued);
      if (!parsed.ok) return refuse(400, parsed.problem.message, "invalid_request_error", parsed.problem.code, parsed.problem.param);
      const request = parsed.request;
      const view = chatView(request);
      entry.messages = redactImages(view.messages);
      entry.images = countImages(view);
      entry.tools = offeredToolNames(view);

      // The Responses API's checks are scripted turns (not `probe`): a model on it serves nothing else.
      const decision = queue.take(view, (_turn, expect) => responsesViolations(expect, request));
      if (decision.kind === "probe") return refuse(400, "no turn for a model check", "invalid_request_error", MISMATCH_CODE);
      if (decision.kind === "mismatch") return refuse(400, decision.message, "invalid_request_error", MISMATCH_CODE);
      entry.matchedTurn = decision.turnNumber;
      const headers = { "x-scripted-turn": String(decision.turnNumber) };
      if (decision.kind === "fault") {
        entry.fault = faultLabel(decision.fault);
        entry.status = await performFault(decision.fault, { res, stream: false, chunks: () => [], headers, timers });
        return;
      }
      if (decision.delayMs > 0) {
        entry.fault = `slow ${decision.delayMs}ms`;
        await delay(decision.delayMs, timers, res);
      }
      if (!isOpen(res)) return;
      const answer = responsesBody(decision.turn, turnText(decision.turn), request, view, entry.images, { issued, nextCallId: () => `call_${++callCounter}` });
      entry.status = 200;
      sendJson(res, 200, answer, headers);
    } finally {
      logLine(entry);
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://scripted").pathname;
    const key = `${req.method ?? "GET"} ${path}`;
    switch (key) {
      case "POST /v1/chat/completions":
        return chatCompletions(req, res);
      case "POST /v1/responses":
        return responses(req, res);
      case "GET /v1/models": {
        // The key is checked here too, like a hosted endpoint does: a test can see Argus lists models with its key.
        if (opts.requireKey !== undefined && req.headers.authorization !== `Bearer ${opts.requireKey}`) {
          return sendJson(res, 401, openAIError("Incorrect API key provided (scripted model requires a key)", "invalid_request_error", "invalid_api_key"));
        }
        const models = req.headers[PROBE_HEADER] !== undefined ? servedModels(queue.models()) : queue.models();
        const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "argus-scripted" }));
        return sendJson(res, 200, { object: "list", data });
      }
      case "GET /__requests":
        return sendJson(res, 200, requests);
      case "GET /__state":
        return sendJson(res, 200, state());
      case "POST /__reset":
        reset();
        return sendJson(res, 200, state());
      case "POST /__scenario": {
        try {
          load(JSON.parse(await readBody(req)));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return sendJson(res, 400, openAIError(`invalid scenario: ${message}`, "invalid_request_error", "invalid_scenario"));
        }
        return sendJson(res, 200, state());
      }
      default:
        return sendJson(res, 404, openAIError(`scripted model has no route ${key}`, "invalid_request_error", "not_found"));
    }
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, 500, openAIError(`scripted model failed: ${message}`, "server_error", null));
      else res.destroy();
    });
  });

  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${host}:${port}/v1`,
    port,
    get scenario() {
      return scenario;
    },
    requests,
    remaining: () => queue.remaining(),
    reset,
    load,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        // Stalled and keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
