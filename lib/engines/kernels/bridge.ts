import { z } from "zod";
import type { Usage } from "@/lib/engines/llm/usage";
import type { InteractionChoice } from "@/lib/foundation/protocol/interaction-choice";
import { BridgeMeter } from "./bridge-meter";

/**
 * The kernel calls back into Argus over its own stdin channel: Python's
 * `input()` with a marked prompt (python/argus/bridge.py). The kernel holds no
 * credentials and needs no network; the server answers through the same
 * Jupyter connection it already owns.
 */
export const BRIDGE_PREFIX = "\u001eargus-bridge:";

const BridgeRequestSchema = z.object({
  id: z.string().min(1).max(100),
  method: z.string().min(1).max(100),
  params: z.record(z.string(), z.unknown()).default({}),
});
type BridgeRequest = z.infer<typeof BridgeRequestSchema>;

/** A question for the person, asked from inside a running cell. */
export interface PersonQuestion {
  kind: "question" | "tool_review" | "safety";
  prompt: string;
  options?: string[];
  payload?: unknown;
}

/** The person's answer: their words, and the fields when a card answered with them (a tool review's pick). */
export interface PersonAnswer {
  text: string;
  choice: InteractionChoice | null;
}

/** Asks the person and resolves with their answer (the run waits meanwhile). */
export type AskPerson = (question: PersonQuestion) => Promise<PersonAnswer>;

/** What a bridge method gets besides its params. */
export interface BridgeCallContext {
  /** Host path of the calling kernel's directory; never read it directly: use `readFile`. */
  workspace: string;
  /**
   * A file the cell handed over (a workspace-relative path), at most `maxBytes`: from the shared
   * disk without following links, or through the kernel in checked chunks (transport `kernel`).
   * Untrusted bytes either way.
   */
  readFile(relativePath: string, maxBytes: number): Promise<Buffer>;
  /** Aborted when the cell ends (done, timed out, cancelled). */
  signal: AbortSignal;
  /** Counts a model call made for the cell against the cell's and the run's budgets. */
  charge(usage: Usage): void;
  /** Waits for `work` with the cell's clock stopped: only for waiting on the person (tool review). */
  holdClock<T>(work: Promise<T>): Promise<T>;
  /**
   * The calling cell's meter. Cells a method runs on the kernel's behalf (the
   * candidate tools of get_tool_for_task, in an isolated kernel) take it too,
   * so their own bridge calls count against the same cell and run budgets.
   */
  meter: BridgeMeter;
  /** Asks the person, when the cell runs inside a run that can wait for them. */
  ask?: AskPerson;
}

/** A method the kernel may call. */
type BridgeMethod = (params: Record<string, unknown>, ctx: BridgeCallContext) => Promise<unknown>;

export type BridgeMethods = Record<string, BridgeMethod>;

export const builtinBridgeMethods: BridgeMethods = {
  async ping(params) {
    return typeof params.text === "string" ? params.text : "pong";
  },
};

/** Adds methods to the bridge; a name given twice is a wiring mistake, not an override. */
export function registerBridgeMethods(bridge: BridgeMethods, methods: BridgeMethods): void {
  for (const [name, method] of Object.entries(methods)) {
    if (Object.hasOwn(bridge, name)) throw new Error(`bridge method ${name} is registered twice`);
    bridge[name] = method;
  }
}

export function isBridgePrompt(prompt: string): boolean {
  return prompt.startsWith(BRIDGE_PREFIX);
}

/** The id of a bridge request, or null when the prompt is not one. */
export function bridgeRequestId(prompt: string): string | null {
  try {
    const id = (JSON.parse(prompt.slice(BRIDGE_PREFIX.length)) as { id?: unknown }).id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

/**
 * The kernel's answer to a file request the server made in the middle of a bridge call
 * (python/argus/bridge.py), or null when the prompt is a new call.
 */
export function transferAnswerOf(prompt: string): { id: string; answer: { result?: Record<string, unknown>; error?: string } } | null {
  if (!prompt.includes('"transfer_answer"')) return null;
  try {
    const parsed = JSON.parse(prompt.slice(BRIDGE_PREFIX.length)) as { id?: unknown; transfer_answer?: unknown };
    if (typeof parsed.id !== "string" || typeof parsed.transfer_answer !== "object" || parsed.transfer_answer === null) return null;
    return { id: parsed.id, answer: parsed.transfer_answer as { result?: Record<string, unknown>; error?: string } };
  } catch {
    return null;
  }
}

/** Answers one bridge prompt; every failure becomes an error reply, never an exception. */
export async function answerBridge(
  prompt: string,
  methods: BridgeMethods,
  ctx: Omit<BridgeCallContext, "charge" | "meter">,
  meter: BridgeMeter = new BridgeMeter(),
): Promise<string> {
  let request: BridgeRequest;
  try {
    request = BridgeRequestSchema.parse(JSON.parse(prompt.slice(BRIDGE_PREFIX.length)));
  } catch {
    return JSON.stringify({ id: null, error: { message: "The bridge request was not valid JSON of {id, method, params}." } });
  }
  // Own properties only: `constructor`, `__proto__` or `toString` must not
  // reach Object.prototype's functions.
  const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  if (typeof method !== "function") {
    return JSON.stringify({ id: request.id, error: { message: `Unknown bridge method '${request.method}'.` } });
  }
  try {
    meter.admit();
    const result = await method(request.params, { ...ctx, meter, charge: (usage) => meter.charge(usage) });
    return JSON.stringify({ id: request.id, result: result ?? null });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return JSON.stringify({ id: request.id, error: { message } });
  }
}
