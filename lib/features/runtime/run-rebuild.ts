/**
 * Rebuilds a run's agents from the log on an instance that did not run it (OpenHands'
 * state-from-events): the root agent is made again from what it saw when the run opened, then
 * every agent is stepped again through the steps the log records, answered by the replies the
 * model gave then (model-replies.ts), and handed the observations the log holds, so each one
 * remembers what it remembered when the run stopped. Nothing is carried out again and nothing is
 * written; the step left unanswered (in flight when the run stopped) is handed back to be done once.
 */
import type { Agent, ImageRef, ObservationExtras, RunAgents } from "@/agents/types";
import type { Db } from "@/lib/engines/db/database";
import { filesOfSession } from "@/lib/engines/db/files";
import { fileUrl } from "@/lib/foundation/protocol/files";
import type { ArgusEvent, JsonObject } from "@/lib/foundation/protocol/events";
import type { RunStart } from "./active-run";
import type { RebuiltRun } from "./controller";
import { replayingModel, ReplayMismatch } from "./model-replies";
import { loggedCellImageExtras } from "./cell-image-extras";
import { replayPlan, type ReplayStep } from "./replay-plan";

/** What a run is rebuilt from: the log, how its agents are made, and the session's pictures by URL (imagesOfSession). */
export interface RebuildInputs {
  sessionId: string;
  runId: string;
  events: readonly ArgusEvent[];
  agents: (run: RunStart) => Promise<RunAgents>;
  images: ReadonlyMap<string, ImageRef>;
}

/** The run rebuilt, with its agent factory; or why it cannot be (said in the log line, the run is then interrupted). */
export type Rebuilt = { run: RebuiltRun; create: RunAgents["create"] } | { why: string };

export async function rebuildRun({ sessionId, runId, events, images, ...deps }: RebuildInputs): Promise<Rebuilt> {
  const plan = replayPlan(events, runId);
  if ("why" in plan) return plan;
  const agents = await deps.agents({ sessionId, events: plan.before, text: plan.text, media: plan.media });
  const stack: Agent[] = [agents.root];
  const signal = new AbortController().signal;
  let unfinished: RebuiltRun["unfinished"] = null;
  try {
    for (const step of plan.steps) {
      const top = stack.at(-1);
      const logged = step.action;
      if (!top || top.name !== logged.agent) return { why: `step ${logged.id} was taken by the ${logged.agent} agent, not the one on top (${top?.name ?? "none"})` };
      const model = replayingModel(step.replies);
      const result = await top.step({ sessionId, runId, signal, model, replaying: true });
      if (result.action.action !== logged.action || model.left() > 0) return { why: `step ${logged.id} came out differently when taken again` };
      if (result.action.action === "delegate") {
        stack.push(await agents.create(result.action.args.agent, delegateInputs(logged) ?? result.action.args.inputs));
        continue;
      }
      if (step.answer === null) {
        // A message needs no answer; anything else unanswered was in flight (replay-plan.ts: only the last).
        if (result.action.action !== "message") unfinished = { action: logged, result };
        continue;
      }
      if (result.action.action === "finish" || result.action.action === "reject") {
        stack.pop();
        await stack.at(-1)?.observe(step.answer);
      } else {
        await top.observe(step.answer, extrasOf(step, images));
      }
    }
  } catch (error) {
    if (error instanceof ReplayMismatch) return { why: error.message };
    throw error;
  }
  return { run: { stack, firstSeq: plan.openingSeq, steps: plan.steps.length, unfinished }, create: agents.create };
}

/** A delegation's inputs as logged (the agents below are made from exactly those). */
function delegateInputs(logged: ReplayStep["action"]): JsonObject | null {
  return "args" in logged && logged.action === "delegate" ? (logged.args as { inputs: JsonObject }).inputs : null;
}

/** The pictures a cell or a page made, by URL, as the agents were shown them. */
export async function imagesOfSession(db: Db, sessionId: string): Promise<Map<string, ImageRef>> {
  const files = await filesOfSession(db, sessionId);
  return new Map(files.map((f) => [fileUrl(f.id), { fileId: f.id, label: f.name, width: f.width ?? 0, height: f.height ?? 0 }]));
}

function extrasOf(step: ReplayStep, images: ReadonlyMap<string, ImageRef>): ObservationExtras {
  const answer = step.answer;
  if (!answer || !("observation" in answer)) return { images: [], viewed: [] };
  if (answer.observation === "run_ipython") return loggedCellImageExtras(answer.extras.image_urls ?? [], answer.extras.image_labels, images);
  const urls = "image_urls" in answer.extras ? answer.extras.image_urls : [];
  return loggedCellImageExtras(Array.isArray(urls) ? urls : [], undefined, images);
}
