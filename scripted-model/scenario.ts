/**
 * The scenario file the scripted model answers from (DESIGN §7). Every object is strict so a
 * typo such as `toolcalls` fails when the file is loaded, naming the field, instead of
 * silently producing a turn that answers with nothing.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const OneOrMany = z.union([z.string(), z.array(z.string())]);

const ExpectSchema = z.strictObject({
  /** Every string must appear somewhere in the request's message text. */
  contains: OneOrMany.optional(),
  /** No string may appear anywhere in the request's message text. */
  notContains: OneOrMany.optional(),
  /** At least this many image parts across all messages. */
  images: z.int().min(0).optional(),
  /** At most this many image parts across all messages. */
  maxImages: z.int().min(0).optional(),
  /** These tool names must be offered in `tools` (the Responses computer tool is `computer_use_preview`). */
  toolNames: z.array(z.string()).optional(),
  /** Responses API: the last computer_call_output's `current_url` contains this. */
  currentUrl: z.string().optional(),
  /** Responses API: the last computer_call_output acknowledges exactly these safety-check codes ([] = none). */
  acknowledged: z.array(z.string()).optional(),
});

/** `times`: answer with the fault this many times, then give the turn's normal answer. */
const Times = z.int().min(1).optional();

const FaultSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("status").optional(),
    status: z.literal([429, 500, 503, 401, 404, 400]),
    message: z.string().optional(),
    /** Seconds, sent as Retry-After; fractions are allowed so tests stay fast. */
    retryAfter: z.number().min(0).optional(),
    code: z.string().optional(),
    times: Times,
  }),
  /** Destroy the socket after the first chunk (streaming) or before any response. */
  z.strictObject({ type: z.literal("close"), times: Times }),
  /** 200 with a body that is neither valid JSON nor valid chunk JSON. */
  z.strictObject({ type: z.literal("garbage"), times: Times }),
  /**
   * Hang for `ms` and then drop the connection without answering, so only a client timeout
   * ends the call. `midStream`: for streaming requests, send the first chunks before hanging.
   */
  z.strictObject({
    type: z.literal("stall"),
    ms: z.int().min(0),
    midStream: z.boolean().optional(),
    times: Times,
  }),
  /** Wait `ms`, then answer normally (and consume the turn). */
  z.strictObject({ type: z.literal("slow"), ms: z.int().min(0) }),
]);

const ToolCallSchema = z.strictObject({
  name: z.string().min(1),
  /** Sent as JSON.stringify(args); a string is sent verbatim so tests can send broken JSON. */
  args: z.unknown(),
});

/**
 * How the server speaks, like the real servers Argus meets: `openai` (OpenAI itself), `vllm-hermes`
 * (vLLM serving a Hermes/Qwen model without a tool parser: calls written in the text),
 * `ollama` (its OpenAI-compatible endpoint's quirks), `no-tools` (a model without tool support:
 * any request carrying `tools` is refused with 400, as Ollama does).
 */
export const DIALECTS = ["openai", "vllm-hermes", "ollama", "no-tools"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Wire quirks of one answer, for testing what a client tolerates. */
const WireSchema = z.strictObject({
  /** Send `function.arguments` as a JSON object instead of a JSON string. */
  argumentsAsObject: z.boolean().optional(),
  /** Leave out the tool-call `id`. */
  omitCallIds: z.boolean().optional(),
  /** Split each call's arguments into this many stream chunks (default 2). */
  argumentChunks: z.int().min(1).max(10_000).optional(),
});

/** Responses API (`POST /v1/responses`) only: the model acts on the computer. */
const ComputerCallSchema = z.strictObject({
  /** Sent verbatim as `action`, so a test can send a malformed one. */
  action: z.unknown(),
  /** Raised with the call; the next request must acknowledge every one of them. */
  pendingSafetyChecks: z.array(z.strictObject({ code: z.string().min(1), message: z.string() })).optional(),
});

/** Pace a streamed answer: pieces of `chunkChars`, `delayMs` apart (latency benchmarks). */
const PaceSchema = z.strictObject({ chunkChars: z.int().min(1), delayMs: z.int().min(0) });

const TurnSchema = z.strictObject({
  model: z.string().min(1),
  /**
   * This turn answers a model check (the doctor's probe, sent with `x-argus-doctor`), never
   * Argus's own calls; a probe with no such turn left gets the built-in answer (probe-answer.ts).
   */
  probe: z.boolean().optional(),
  text: z.string().optional(),
  /** Appended after `text`: big outputs without a big scenario file. */
  textRepeat: z.strictObject({ chunk: z.string(), times: z.int().min(0) }).optional(),
  /** Chat Completions: tool calls. Responses API: `function_call` items. */
  toolCalls: z.array(ToolCallSchema).optional(),
  /** Responses API only: one `computer_call` item (a chat completions request cannot take this turn). */
  computerCall: ComputerCallSchema.optional(),
  expect: ExpectSchema.optional(),
  fault: FaultSchema.optional(),
  usage: z
    .strictObject({
      prompt_tokens: z.int().min(0).optional(),
      completion_tokens: z.int().min(0).optional(),
    })
    .optional(),
  finishReason: z.enum(["stop", "tool_calls", "length", "content_filter"]).optional(),
  refusal: z.string().optional(),
  /**
   * Thinking streamed before the answer, as `reasoning_content` (or `reasoning` in the ollama
   * dialect); on the Responses API a `reasoning` item with this as its summary.
   */
  reasoning: z.string().optional(),
  wire: WireSchema.optional(),
  stream: PaceSchema.optional(),
  // Habits of real models (habits.ts), for testing what Argus tolerates.
  /** Wrap each call's `code`/`test` in a markdown fence: ```python, a bare ```, or after a sentence. */
  fence: z.enum(["python", "bare", "sentence"]).optional(),
  /** Thinking (the turn's `reasoning`, else the first call's `thinking`) written in the text; `unclosed` also writes the calls as tags after it. */
  thinkInText: z.enum(["think", "thinking", "unclosed"]).optional(),
  /** Send the arguments as a JSON string holding the JSON, or as JavaScript-ish JSON (single quotes, trailing commas). */
  argumentsAs: z.enum(["double_encoded", "loose"]).optional(),
  /** The first call goes out under this name (`python` for execute_python, `final_answer` for reply). */
  callAs: z.string().min(1).optional(),
  /** The reply stops halfway through the first call's arguments with finish_reason "length". */
  cutOff: z.boolean().optional(),
});

const ScenarioSchema = z.strictObject({
  name: z.string().min(1),
  /** Wins over the server's `dialect` option. */
  dialect: z.enum(DIALECTS).optional(),
  /**
   * What a request identical to one a turn already answered gets (same model, messages and
   * tools): `next_turn` (the default) the model's next turn; `answer_again` that turn's answer
   * once more, as a real model would answer a caller that lost its answer (a run's owner killed
   * after the model answered but before the step was logged, the step taken again elsewhere).
   */
  repeatedRequests: z.enum(["next_turn", "answer_again"]).optional(),
  turns: z.array(TurnSchema).min(1),
});

export type Scenario = z.infer<typeof ScenarioSchema>;
export type Turn = z.infer<typeof TurnSchema>;
export type Expect = z.infer<typeof ExpectSchema>;
export type Fault = z.infer<typeof FaultSchema>;
export type Wire = z.infer<typeof WireSchema>;

/** A scenario that cannot be read or does not validate; `field` is the first bad path. */
export class ScenarioError extends Error {
  readonly source: string;
  readonly field?: string;

  constructor(source: string, message: string, field?: string) {
    super(message);
    this.name = "ScenarioError";
    this.source = source;
    this.field = field;
  }
}

/** `["turns", 2, "fault", "status"]` → `turns[2].fault.status`, the way a person reads JSON. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(top level)" : out;
}

/** Turn numbers in messages count from 1; point at the turn as well as the JSON path. */
function turnHint(path: readonly PropertyKey[]): string {
  return path[0] === "turns" && typeof path[1] === "number" ? ` (turn ${path[1] + 1})` : "";
}

/** Validate an already-parsed scenario; `source` names it in errors (a file path or "inline"). */
export function parseScenario(value: unknown, source = "inline scenario"): Scenario {
  const result = ScenarioSchema.safeParse(value);
  if (result.success) return result.data;
  // An unknown key is reported on its parent; name the key itself, since that is the typo.
  const issues = result.error.issues.map((issue) => ({
    path: issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path,
    message: issue.message,
  }));
  const lines = issues.map(({ path, message }) => `${formatPath(path)}${turnHint(path)}: ${message}`);
  const field = issues[0] === undefined ? undefined : formatPath(issues[0].path);
  return throwScenario(source, `invalid scenario ${source}: ${lines.join("; ")}`, field);
}

function throwScenario(source: string, message: string, field?: string): never {
  throw new ScenarioError(source, message, field);
}

/** Read and validate a scenario file; every failure names the file (and the field, if any). */
export function loadScenario(path: string): Scenario {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return throwScenario(path, `cannot read scenario file ${path}: ${reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return throwScenario(path, `scenario file ${path} is not valid JSON: ${reason}`);
  }
  return parseScenario(json, `file ${path}`);
}
