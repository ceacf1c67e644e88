import type { Db } from "@/lib/db/database";
import { filesOfSession, type FileRow } from "@/lib/db/files";
import type { AgentMessage } from "@/lib/protocol/agent-message";
import type { ArgusEvent, AgentName } from "@/lib/protocol/events";
import { toAgentMessage } from "@/lib/runtime/projection";
import { BrowserAgent } from "./browser/agent";
import type { BrowserEngine, BrowserEngineInputs } from "./browser/engine";
import { CoderAgent, type CoderInputs } from "./coder/agent";
import { ConversationAgent } from "./conversation/agent";
import { lastCode } from "./conversation/last-code";
import { PlannerAgent } from "./planner/agent";
import type { Agent, ImageRef, PrepareImage, RunAgents } from "./types";

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

/**
 * The agents of one run: the conversation agent it starts with, and the
 * factory the controller calls when an agent delegates (conversation → coder
 * → planner). Adding an agent means adding it here; the runtime never names one.
 */
export async function agentsForRun(deps: AgentDeps, run: RunRequest): Promise<RunAgents> {
  // Read when an agent is made, not once per run: the browser may save pictures mid-run
  // that the coder and planner it hands over to must see.
  const uploadsNow = async () => (await filesOfSession(deps.db, run.sessionId)).filter((f) => f.origin === "upload");
  const initial = await uploadsNow();
  const requested = run.media.length ? initial.filter((f) => run.media.includes(f.id)) : initial;

  /** The uploads a delegation names (inputs.uploads), else the ones the person's message chose. */
  const chosenFor = async (inputs: Record<string, unknown>) => {
    const ids = Array.isArray(inputs.uploads) ? inputs.uploads.filter((id): id is string => typeof id === "string") : [];
    const uploads = await uploadsNow();
    const chosen = ids.length ? uploads.filter((f) => ids.includes(f.id)) : uploads.filter((f) => requested.some((r) => r.id === f.id));
    return { uploads, chosen };
  };
  const imageRefsOf = (files: FileRow[]): ImageRef[] =>
    files.filter((f) => f.kind === "image").map((f) => ({ fileId: f.id, label: `${f.name} (upload)`, width: f.width ?? 0, height: f.height ?? 0 }));

  const create = async (name: AgentName, inputs: Record<string, unknown>): Promise<Agent> => {
    switch (name) {
      case "planner":
        return new PlannerAgent({ task: String(inputs.task ?? ""), uploads: imageRefsOf((await chosenFor(inputs)).chosen), maxTurns: deps.plannerMaxTurns, catalogue: deps.catalogue }, deps.prepareImage);
      case "coder":
        return new CoderAgent({ ...(inputs as object), files: (await chosenFor(inputs)).uploads.map((f) => f.name), catalogue: deps.catalogue } as CoderInputs);
      case "browser": {
        if (!deps.browser) throw new Error("no browser model is configured");
        const b = deps.browser;
        return new BrowserAgent({ task: String(inputs.task ?? ""), url: String(inputs.url ?? ""), maxSteps: b.maxSteps, viewport: b.viewport, maxEdge: b.screenEdge }, b.makeEngine, deps.prepareImage);
      }
      case "conversation": {
        const history = run.events.map(toAgentMessage).filter((m): m is AgentMessage => m !== null);
        return new ConversationAgent({
          history,
          request: { text: run.text, uploads: requested.map((f) => f.id) },
          lastCode: lastCode(run.events),
          canBrowse: deps.browser !== null,
          startBatch: deps.startBatch ? () => deps.startBatch!(run.sessionId) : null,
        });
      }
      default:
        throw new Error(`no agent named ${name}`);
    }
  };
  return { root: await create("conversation", {}), create };
}
