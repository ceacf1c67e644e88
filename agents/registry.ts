import { z } from "zod";
import { filesOfSession } from "@/lib/engines/db/files";
import { ROOT_AGENT } from "@/lib/foundation/protocol/agent-cards";
import type { AgentName } from "@/lib/foundation/protocol/events";
import { browserDescriptor } from "./browser/descriptor";
import { coderDescriptor } from "./coder/descriptor";
import { conversationDescriptor } from "./conversation/descriptor";
import type { AgentDeps, AgentDescriptor, FinishEnv, FinishedAgent, MakeEnv, RunRequest } from "./descriptor";
import { plannerDescriptor } from "./planner/descriptor";
import type { Agent, RunAgents } from "./types";

export type { AgentDeps, RunRequest } from "./descriptor";

/** Every agent of Argus, one descriptor each (agents/<name>/descriptor.ts). Adding an agent means adding it here. */
export const AGENT_DESCRIPTORS: readonly AgentDescriptor[] = [conversationDescriptor, plannerDescriptor, coderDescriptor, browserDescriptor];

const BY_NAME: ReadonlyMap<string, AgentDescriptor> = new Map(AGENT_DESCRIPTORS.map((d) => [d.card.name, d]));

/** The descriptor of the agent `name`, or undefined. */
export function agentDescriptor(name: string): AgentDescriptor | undefined {
  return BY_NAME.get(name);
}

/**
 * The agents of one run: the root agent it starts with, and the factory the controller calls
 * when an agent delegates. Each is made by its descriptor from inputs its schema checked; the
 * runtime never names one.
 */
export async function agentsForRun(deps: AgentDeps, run: RunRequest): Promise<RunAgents> {
  // Read when an agent is made, not once per run: the browser may save pictures mid-run
  // that the coder and planner it hands over to must see.
  const uploadsNow = async () => (await filesOfSession(deps.db, run.sessionId)).filter((f) => f.origin === "upload");
  const initial = await uploadsNow();
  const requested = run.media.length ? initial.filter((f) => run.media.includes(f.id)) : initial;
  const env: MakeEnv = {
    deps,
    run,
    requested,
    async uploads(ids = []) {
      const all = await uploadsNow();
      const chosen = ids.length ? all.filter((f) => ids.includes(f.id)) : all.filter((f) => requested.some((r) => r.id === f.id));
      return { all, chosen };
    },
  };

  const create = async (name: AgentName, inputs: Record<string, unknown>): Promise<Agent> => {
    const descriptor = agentDescriptor(name);
    if (!descriptor) throw new Error(`no agent named ${name}`);
    const checked = descriptor.inputs.safeParse(inputs);
    if (!checked.success) throw new Error(`The ${descriptor.card.label} was handed inputs it cannot use: ${z.prettifyError(checked.error)}`);
    return descriptor.make(checked.data, env);
  };
  return { root: await create(ROOT_AGENT, {}), create };
}

/** Does what an agent's finish does besides ending it (the coder's function is kept); told before the finish is logged. */
export async function agentFinished(env: FinishEnv, finished: FinishedAgent & { agent: AgentName }): Promise<void> {
  await agentDescriptor(finished.agent)?.onFinish?.(env, finished);
}
