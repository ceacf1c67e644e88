import { joinThinking } from "@/lib/engines/llm/reply-calls";
import { addUsage, NO_USAGE, type Agent, type ObservationExtras, type StepContext, type StepResult } from "@/agents/types";
import { PlanContextSchema, type PlanContext } from "@/lib/foundation/protocol/contexts";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { buildPlannerMessages, type ImageRef, type PlannerTurnRecord, type PrepareImage } from "./memory";
import { PLANNER_FIX_NOTE, plannerSystem, SUMMARY_SYSTEM } from "./prompt";
import { plannerFixTools, plannerTools, summaryTools } from "./tools";

export interface PlannerInputs {
  /** The vision-tool catalogue section of the system prompt ('' when there is none). */
  catalogue: string;
  task: string;
  uploads: ImageRef[];
  maxTurns: number;
}

const MAX_FIX_ATTEMPTS = 3;

/** What the coder is told when the planner finishes. */
export function describePlan(outputs: Record<string, unknown>): string {
  return `Plan: ${PlanContextSchema.parse(outputs).plan}`;
}

type Pending =
  | { kind: "code"; thinking: string; code: string; isFix: boolean; notice?: string }
  | { kind: "ask"; thinking: string; question: string; options: string[]; notice?: string };

/**
 * VisionAgentPlannerV2: at most N exploring turns in the session's kernel,
 * each one model call shown its earlier turns (truncated) and the pictures it
 * just made; a failing cell is auto-fixed at most 3 times; then a summary call
 * turns the exploration into a PlanContext for the coder.
 */
export class PlannerAgent implements Agent {
  readonly name = "planner" as const;
  private readonly turns: PlannerTurnRecord[] = [];
  private turnsUsed = 0;
  private fixes = 0;
  private pending: Pending | null = null;
  private finalizing = false;

  constructor(
    private readonly inputs: PlannerInputs,
    private readonly prepareImage: PrepareImage,
  ) {}

  private get lastFailed(): boolean {
    const last = this.turns.at(-1);
    return last?.kind === "code" && last.failed === true;
  }

  async step(ctx: StepContext): Promise<StepResult> {
    if (this.finalizing || this.turnsUsed >= this.inputs.maxTurns) return this.summarize(ctx);
    const fixing = this.lastFailed && this.fixes < MAX_FIX_ATTEMPTS;
    if (!this.lastFailed) this.fixes = 0;
    const context = await buildPlannerMessages(
      { system: plannerSystem(this.inputs.catalogue), task: { text: this.inputs.task, uploads: this.inputs.uploads }, turns: this.turns, maxTurns: this.inputs.maxTurns - this.turnsUsed + this.turns.length },
      this.prepareImage,
    );
    const messages = fixing
      ? [...context.messages, { role: "user" as const, content: PLANNER_FIX_NOTE(this.fixes + 1, MAX_FIX_ATTEMPTS) }]
      : context.messages;
    // Named as a union: inferred, the fix set (a subset) would absorb the full one.
    const res = await ctx.model.callTool<typeof plannerTools | typeof plannerFixTools>("planner", {
      system: context.system,
      messages,
      tools: fixing ? plannerFixTools : plannerTools,
      signal: ctx.signal,
      onDraft: ctx.onDraft,
    });
    // Reasoning fields and text beside the call are thinking too; a model often repeats itself there.
    const thinking = joinThinking(res.thinking, res.args.thinking);
    const notice = res.notice === undefined ? {} : { notice: res.notice };
    if (res.name === "execute_python") {
      if (fixing) this.fixes++;
      else this.turnsUsed++;
      const { code } = res.args;
      this.pending = { kind: "code", thinking, code, isFix: fixing, ...notice };
      return { action: { action: "run_ipython", args: { code, thought: thinking } }, usage: res.usage };
    }
    if (res.name === "ask_user") {
      this.turnsUsed++;
      const { question } = res.args;
      const options = res.args.options ?? [];
      this.pending = { kind: "ask", thinking, question, options, ...notice };
      return {
        action: { action: "interaction", args: { kind: "question", prompt: question, options, thought: thinking } },
        usage: res.usage,
      };
    }
    // finalize_plan: write the summary in the same step.
    this.finalizing = true;
    const summary = await this.summarize(ctx);
    return { ...summary, usage: addUsage(res.usage, summary.usage) };
  }

  private async summarize(ctx: StepContext): Promise<StepResult> {
    const context = await buildPlannerMessages(
      { system: SUMMARY_SYSTEM, task: { text: this.inputs.task, uploads: this.inputs.uploads }, turns: this.turns, maxTurns: this.turns.length },
      this.prepareImage,
    );
    const res = await ctx.model.callTool("planner", {
      system: SUMMARY_SYSTEM,
      messages: [...context.messages, { role: "user", content: "Now call submit_plan." }],
      tools: summaryTools,
      signal: ctx.signal,
      onDraft: ctx.onDraft,
    });
    const plan: PlanContext = res.args;
    return {
      action: { action: "finish", args: { outputs: PlanContextSchema.parse({ plan: plan.plan, instructions: plan.instructions, code: plan.code } satisfies PlanContext), final_thought: "Plan ready." } },
      usage: res.usage ?? NO_USAGE,
    };
  }

  /** Turns the observation of the last action (and the pictures its cell made) into a turn record the next call sees. */
  observe(event: ArgusEvent, extras: ObservationExtras = { images: [], viewed: [] }): void {
    const { images, viewed } = extras;
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    if (pending.kind === "code" && "observation" in event) {
      this.turns.push({
        turn: this.turns.length + 1,
        kind: "code",
        thinking: pending.thinking,
        code: pending.code,
        observation: { text: event.content, images, viewed },
        fixAttempts: pending.isFix ? this.fixes : 0,
        ...(pending.notice === undefined ? {} : { notice: pending.notice }),
        failed: event.observation === "error" || (event.observation === "run_ipython" && event.extras.failed === true),
      });
    } else if (pending.kind === "ask" && "action" in event && event.action === "message") {
      this.turns.push({
        turn: this.turns.length + 1,
        kind: "ask",
        thinking: pending.thinking,
        question: pending.question,
        options: pending.options,
        observation: { text: `The person answered: ${event.args.content}`, images: [], viewed: [] },
        ...(pending.notice === undefined ? {} : { notice: pending.notice }),
      });
    }
  }

  describeOutputs(outputs: Record<string, unknown>): string {
    return describePlan(outputs);
  }
}
