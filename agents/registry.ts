import type { Db } from "@/lib/db/database";
import { filesOfSession } from "@/lib/db/files";
import type { AgentMessage } from "@/lib/protocol/agent-message";
import type { ArgusEvent, AgentName } from "@/lib/protocol/events";
import { toAgentMessage } from "@/lib/runtime/projection";
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
export function agentsForRun(deps: AgentDeps, run: RunRequest): RunAgents {
  const uploads = filesOfSession(deps.db, run.sessionId).filter((f) => f.origin === "upload");
  const chosen = run.media.length ? uploads.filter((f) => run.media.includes(f.id)) : uploads;
  const imageRefs: ImageRef[] = chosen
    .filter((f) => f.kind === "image")
    .map((f) => ({ fileId: f.id, label: `${f.name} (upload)`, width: f.width ?? 0, height: f.height ?? 0 }));
  const files = uploads.map((f) => f.name);

  const create = (name: AgentName, inputs: Record<string, unknown>): Agent => {
    switch (name) {
      case "planner":
        return new PlannerAgent({ task: String(inputs.task ?? ""), uploads: imageRefs, maxTurns: deps.plannerMaxTurns, catalogue: deps.catalogue }, deps.prepareImage);
      case "coder":
        return new CoderAgent({ ...(inputs as object), files, catalogue: deps.catalogue } as CoderInputs);
      case "conversation": {
        const history = run.events.map(toAgentMessage).filter((m): m is AgentMessage => m !== null);
        return new ConversationAgent({ history, request: { text: run.text, uploads: chosen.map((f) => f.id) }, lastCode: lastCode(run.events) });
      }
      default:
        throw new Error(`no agent named ${name}`);
    }
  };
  return { root: create("conversation", {}), create };
}
