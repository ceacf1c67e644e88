import type { ArgusConfig } from "@/lib/foundation/config";
import type { BatchDeps } from "@/lib/features/batches/service";
import { batchStarter } from "@/lib/features/batches/agent-port";
import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import { imagePreparer } from "@/lib/engines/files/prepare-image";
import type { RunManagerDeps } from "@/lib/features/runtime/run-manager";
import { browserEngineFactory } from "./browser/make-engine";
import { agentFinished, agentsForRun } from "./registry";

/** What the agent policy is made from, given once by the composition root. */
export interface AgentPolicyDeps {
  db: Db;
  blobs: BlobStore;
  config: ArgusConfig;
  /** The vision-tool catalogue as a prompt section ('' without Jupyter). */
  catalogue: string;
  /** For run_on_all_images; null without kernels (the coder then has no batch tool). */
  batches: Pick<BatchDeps, "batches" | "zipUnpacks"> | null;
  /** The session browser's page size; null when browsing is off (no `browse` then). */
  browserViewport: readonly [number, number] | null;
  log: (line: string) => void;
}

/**
 * Argus's agent policy, which the run manager takes as ports: the agents a run gets, with the
 * settings they read from the configuration, and what Argus does when one of them finishes
 * (each descriptor's onFinish: the coder's result is kept as a session function). Neither this
 * policy nor the runtime names an agent.
 */
export function agentPolicy(deps: AgentPolicyDeps): Pick<RunManagerDeps, "agents" | "onAgentFinished"> {
  const { db, blobs, config, log } = deps;
  const prepareImage = imagePreparer({ db, blobs });
  const startBatch = deps.batches ? batchStarter({ db, blobs, config, ...deps.batches }) : null;
  const browser = deps.browserViewport && {
    maxSteps: config.browser.maxSteps,
    viewport: deps.browserViewport,
    screenEdge: config.browser.screenEdge,
    makeEngine: browserEngineFactory(config.browser.api),
  };
  return {
    agents: (run) => agentsForRun({ db, prepareImage, plannerMaxTurns: config.agents.plannerMaxTurns, catalogue: deps.catalogue, startBatch, browser }, run),
    // What each agent's finish does is its descriptor's (the coder's function is kept).
    onAgentFinished: (finished) => agentFinished({ db, log }, finished),
  };
}
