/**
 * A run picked up from the log by an instance that does not hold its agents (another instance
 * ran it and died or stalled, this process restarted, or the database went away under it): its
 * agents rebuilt (run-rebuild.ts) into a controller that goes on from the step it was on.
 */
import type { AgentFactory } from "@/agents/types";
import { getSession } from "@/lib/engines/db/sessions";
import type { ModelClient } from "@/lib/engines/llm/models";
import { redoMark } from "@/lib/foundation/protocol/event-builders";
import { chosenModels } from "@/lib/features/sessions/chosen-models";
import type { RunManagerDeps } from "./active-run";
import { Controller, type ControllerOptions } from "./controller";
import { questionWaiting } from "./resume-waiting";
import { imagesOfSession, rebuildRun } from "./run-rebuild";

/** Why a run is picked up here: the chat says so in plain words. */
export type ResumeReason = "moved" | "restarted" | "database";

const RESUME_NOTES: Record<ResumeReason, string> = {
  moved: "This run moved to another server, continuing from the step it was on.",
  restarted: "Argus restarted; continuing this run from the step it was on.",
  database: "The database was unreachable for a moment; continuing this run from the step it was on.",
};

/** The chat's notice that a run goes on here (a redo mark of kind `moved`: agents never see it). */
export function resumeNotice(reason: ResumeReason, runId: string) {
  return { ...redoMark({ kind: "moved", from: null }, RESUME_NOTES[reason]), runId };
}

/** A controller holding the run's agents as the log left them, or why the log cannot give them back. */
export async function controllerFromLog(
  core: RunManagerDeps,
  model: ModelClient,
  at: { sessionId: string; runId: string; options: Omit<ControllerOptions, "agents"> },
): Promise<{ controller: Controller; agents: AgentFactory; waitingFor: ReturnType<typeof questionWaiting> } | { why: string }> {
  const events = await core.events.eventsAfter(at.sessionId, 0);
  const rebuilt = await rebuildRun({ ...at, events, agents: core.agents, images: await imagesOfSession(core.db, at.sessionId) });
  if ("why" in rebuilt) return rebuilt;
  const chosen = model.withModels(chosenModels((await getSession(core.db, at.sessionId))?.settings ?? {}));
  const controller = new Controller(core, chosen, { ...at.options, agents: rebuilt.create });
  controller.adopt(rebuilt.run);
  return { controller, agents: rebuilt.create, waitingFor: questionWaiting(rebuilt.run) };
}
