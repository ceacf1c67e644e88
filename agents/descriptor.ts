/**
 * An agent, whole, in one value: its card (the facts the runtime and the client read), the
 * tools it offers its model, what a delegating agent hands it and what it hands back, how it
 * is made for a run, and what else its finish does. Each `agents/<name>/descriptor.ts`
 * exports one; `registry.ts` collects them. Adding an agent is adding one of these (and its
 * card in lib/foundation/protocol/agent-cards.ts).
 */
import type { z } from "zod";
import type { Db } from "@/lib/engines/db/database";
import type { FileRow } from "@/lib/engines/db/files";
import type { ToolSpecs } from "@/lib/engines/llm/tool-schema";
import type { KnownAgentCard } from "@/lib/foundation/protocol/agent-cards";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import type { BrowserEngine, BrowserEngineInputs } from "./browser/engine";
import type { Agent, PrepareImage } from "./types";

/** What the agents need from the rest of Argus, given once by the composition root. */
export interface AgentDeps {
  db: Db;
  prepareImage: PrepareImage;
  plannerMaxTurns: number;
  /** The vision-tool catalogue as a prompt section, rendered once at start ('' without Jupyter). */
  catalogue: string;
  /** Starts a batch of the session's latest function on all its images (run_on_all_images); null without kernels. */
  startBatch: ((sessionId: string) => Promise<string>) | null;
  /** The browsing agent's settings; null when no browser model is configured (no `browse` then). */
  browser: {
    maxSteps: number;
    viewport: readonly [number, number];
    screenEdge: number;
    makeEngine: (inputs: BrowserEngineInputs) => BrowserEngine;
  } | null;
}

/** The run being started: its session, the log so far, and the person's message. */
export interface RunRequest {
  sessionId: string;
  events: readonly ArgusEvent[];
  text: string;
  /** Upload ids sent with the message; none means every upload of the session. */
  media: string[];
}

/** What `make` gets besides its inputs: the deps, the run, and the session's uploads. */
export interface MakeEnv {
  deps: AgentDeps;
  run: RunRequest;
  /** The uploads the person's message chose (all of the session's when it chose none), as the run started. */
  requested: readonly FileRow[];
  /**
   * The session's uploads now (the browser may have saved some mid-run), and the ones `ids`
   * names, else the ones the person's message chose.
   */
  uploads(ids?: readonly string[]): Promise<{ all: FileRow[]; chosen: FileRow[] }>;
}

/** An agent that finished, with its outputs. */
export interface FinishedAgent {
  sessionId: string;
  runId: string;
  outputs: Record<string, unknown>;
}

/** What a finish may use besides the run: the database, and where to say what went wrong. */
export interface FinishEnv {
  db: Db;
  log: (line: string) => void;
}

export interface AgentDescriptor<I extends z.ZodType = z.ZodType> {
  /** Its card (lib/foundation/protocol/agent-cards.ts): name, label, where its cells run, what its finish shows. */
  readonly card: KnownAgentCard;
  /** Every set of tools it offers its model, by the call that offers it; each tool says its draft field. */
  readonly tools: Readonly<Record<string, ToolSpecs>>;
  /** What a delegating agent hands it, checked before it is made (the root agent gets `{}`: the run is its input). */
  readonly inputs: I;
  /** What it finishes (or gives up) with: what its parent observes. */
  readonly outputs: z.ZodType;
  /** Makes it for a run, from checked inputs. */
  make(inputs: z.output<I>, env: MakeEnv): Promise<Agent>;
  /** What its parent is told when it finishes with `outputs`. */
  describeOutputs(outputs: Record<string, unknown>): string;
  /** What else its finish does, before the finish is logged (the coder's function is kept). Must not fail the run. */
  onFinish?(env: FinishEnv, finished: FinishedAgent): Promise<void>;
}
