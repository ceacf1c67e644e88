import { PlanContextSchema } from "@/lib/foundation/protocol/contexts";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { AgentDescriptor } from "../descriptor";
import { PlannerAgent, describePlan } from "./agent";
import { PlannerDelegationSchema } from "./inputs";
import { plannerFixTools, plannerTools, summaryTools } from "./tools";

/** VisionAgentPlannerV2: explores the person's images in the session's notebook and hands the coder a plan. */
export const plannerDescriptor: AgentDescriptor<typeof PlannerDelegationSchema> = {
  card: agentCard("planner")!,
  tools: { explore: plannerTools, fix: plannerFixTools, summary: summaryTools },
  inputs: PlannerDelegationSchema,
  outputs: PlanContextSchema,
  async make(inputs, { deps, uploads }) {
    const images = (await uploads(inputs.uploads)).chosen
      .filter((f) => f.kind === "image")
      .map((f) => ({ fileId: f.id, label: `${f.name} (upload)`, width: f.width ?? 0, height: f.height ?? 0 }));
    return new PlannerAgent({ task: inputs.task, uploads: images, maxTurns: deps.plannerMaxTurns, catalogue: deps.catalogue }, deps.prepareImage);
  },
  describeOutputs: describePlan,
};
