/**
 * For agent unit tests (agents/<name>/agent.test.ts): the scripted model on loopback and the
 * real ModelClient pointed at it, a StepContext to hand to `agent.step`, and observations built
 * the way the controller builds them (lib/foundation/protocol/event-builders, parsed by the event schema),
 * so an agent is driven step by step with no Argus server, kernel or browser. The model is the
 * only thing replaced, and only by the scripted server speaking the real protocol.
 */
import path from "node:path";
import sharp from "sharp";
import type { ImageRef, PrepareImage, StepContext } from "@/agents/types";
import { BlobStore } from "@/lib/engines/db/blobs";
import { openDatabase } from "@/lib/engines/db/database";
import { insertSession } from "@/lib/engines/db/sessions";
import { imagePreparer } from "@/lib/engines/files/prepare-image";
import { storeGeneratedImage } from "@/lib/engines/files/generated";
import { ModelClient, type ModelClientOptions } from "@/lib/engines/llm/models";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import { cellObservation, delegateResult, errorNote, personMessage, stateChanged } from "@/lib/foundation/protocol/event-builders";
import { ArgusEventSchema, type AgentName, type ArgusEvent, type ArgusEventInput } from "@/lib/foundation/protocol/events";
import { startScriptedModel, type LoggedRequest, type ScriptedModel, type Turn } from "@/scripted-model/server";
import { tempDir } from "./temp-dir";

/** Retries short and jitter fixed: a fault turn costs milliseconds, never the default back-off. */
const FAST: ModelClientOptions = { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20, timeoutMs: 10_000, maxRetries: 1, random: () => 0.5 };

/** Each role's model is named after the role, so a turn's `model` says which agent it answers. */
const ROLES = { conversation: "conversation", planner: "planner", coder: "coder", browser: "browser", vqa: "vqa", judge: "judge" } as const;

export interface StepBench {
  model: ScriptedModel;
  /** Replace the scripted turns (the request log is emptied) and give a fresh client. */
  script(turns: Turn[]): void;
  /** A StepContext for one step; pass a signal to test a cancel. */
  ctx(signal?: AbortSignal): StepContext;
  /** The logged requests one role's model received, in order. */
  requestsOf(role: keyof typeof ROLES): LoggedRequest[];
  /** All the text a logged request carried (system and messages), for asserting what the model was shown. */
  textOf(request: LoggedRequest): string;
  close(): Promise<void>;
}

/** One scripted model for a test file; call `script` in each test. */
export async function startStepBench(options: ModelClientOptions = {}): Promise<StepBench> {
  const model = await startScriptedModel({ name: "agent-steps", turns: [{ model: "none", text: "unused" }] });
  let client = new ModelClient({ apiKey: "scripted", baseUrl: model.url, byRole: ROLES }, { ...FAST, ...options });
  return {
    model,
    script(turns) {
      model.load({ name: "agent-steps", turns });
      // A fresh client each time: the tool protocol a role settled on (auto → text) is per client.
      client = new ModelClient({ apiKey: "scripted", baseUrl: model.url, byRole: ROLES }, { ...FAST, ...options });
    },
    ctx: (signal = new AbortController().signal) => ({ sessionId: "s-unit", runId: "r-unit", signal, model: client }),
    requestsOf: (role) => model.requests.filter((r) => r.model === ROLES[role]),
    textOf: (request) =>
      request.messages
        .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("\n") : ""))
        .join("\n"),
    close: () => model.close(),
  };
}

/** A tool call turn for `role`'s model. */
export function call(role: keyof typeof ROLES, name: string, args: unknown, more: Partial<Turn> = {}): Turn {
  return { model: ROLES[role], toolCalls: [{ name, args }], usage: { prompt_tokens: 100, completion_tokens: 10 }, ...more };
}

/** The event as the log stores it: validated, defaults filled, with a sequence number. */
export function logged(input: ArgusEventInput, id = 1): ArgusEvent {
  return ArgusEventSchema.parse({ id, ...input });
}

/** A cell's observation whose text (what agents read) is exactly `text`; `failed` when it raised. */
export function cell(agent: AgentName, code: string, text: string, failed = false): ArgusEvent {
  return logged(cellObservation(agent, { code, output: { ...emptyCellOutput(), note: text }, imageUrls: [], failed }));
}

/** A delegate's outputs handed back to the agent that delegated. */
export function delegated(agent: AgentName, content: string, outputs: Record<string, unknown>): ArgusEvent {
  return logged(delegateResult(agent, content, outputs));
}

/** An error observation (kernel gone, browsing off…). */
export function failure(content: string, errorId = "ERROR"): ArgusEvent {
  return logged(errorNote(content, errorId));
}

/** The person's answer to a question (what the controller hands the asking agent). */
export function answer(content: string): ArgusEvent {
  return logged(personMessage(content, []));
}

/** An observation no agent acts on (a run state change). */
export function stateNote(): ArgusEvent {
  return logged(stateChanged("running"));
}

/**
 * Pictures as Argus keeps them: a SQLite database and a blob store in a scratch directory, and
 * the real `imagePreparer` reading them back for the model (what the planner and the browser
 * are given by the composition root).
 */
export async function pictureStore(): Promise<{ prepare: PrepareImage; add(colour: string, width: number, height: number, label: string): Promise<ImageRef>; cleanup(): void }> {
  const scratch = tempDir("argus-agent-steps-");
  const db = await openDatabase(path.join(scratch.dir, "pictures.db"));
  await insertSession(db, { id: "s-unit", tokenHash: "h", browserHash: null, now: new Date().toISOString() });
  const blobs = new BlobStore(path.join(scratch.dir, "blobs"));
  return {
    prepare: imagePreparer({ db, blobs }),
    async add(colour, width, height, label) {
      const png = await sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
      const stored = await storeGeneratedImage({ db, blobs }, "s-unit", png, { name: `${label}.png`, mime: "image/png", label });
      if (!stored) throw new Error(`could not store the picture ${label}`);
      return { fileId: stored.fileId, label, width: stored.width, height: stored.height };
    },
    cleanup: () => {
      void db.close();
      scratch.cleanup();
    },
  };
}
