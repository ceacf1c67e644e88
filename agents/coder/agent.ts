import { addUsage, NO_USAGE, type Agent, type StepContext, type StepResult } from "@/agents/types";
import type { ModelMessage } from "ai";
import { CodeContextSchema, PlanContextSchema, type CodeContext } from "@/lib/foundation/protocol/contexts";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { PlannerDelegationSchema } from "../planner/inputs";
import { coderSystem, editBrief, planBrief } from "./prompt";
import { coderTools, fixTools, testTools } from "./tools";

const MAX_DEBUG_ATTEMPTS = 3;
const CODE_PRELUDE = "from argus import *\n";

export type CoderInputs = (
  | { mode: "plan"; task: string; uploads: string[]; files: string[] }
  | { mode: "edit"; feedback: string; code: string; test: string; files: string[] }
) & {
  /** The vision-tool catalogue section of the system prompt ('' when there is none). */
  catalogue: string;
};

type Phase = "plan" | "write" | "run" | "debug" | "finish";

/** What the conversation agent is told when the coder finishes: its summary. */
export function describeCode(outputs: Record<string, unknown>): string {
  return CodeContextSchema.parse(outputs).summary;
}

/**
 * VisionAgentCoderV2: gets a plan (from the planner, or the person's edit
 * request), writes one function and a test, runs them in a fresh isolated
 * kernel, debugs at most 3 times, and returns a CodeContext.
 */
export class CoderAgent implements Agent {
  readonly name = "coder" as const;
  private phase: Phase;
  private brief = "";
  private code = "";
  private test = "";
  private debugs = 0;
  private lastRun: { text: string; failed: boolean } | null = null;
  private failure: string | null = null;

  constructor(private readonly inputs: CoderInputs) {
    this.phase = inputs.mode === "plan" ? "plan" : "write";
    if (inputs.mode === "edit") {
      this.brief = editBrief(inputs.feedback, inputs.code, inputs.test, inputs.files);
      // Stored code carries the prelude; it is added again on every run.
      this.code = inputs.code.startsWith(CODE_PRELUDE) ? inputs.code.slice(CODE_PRELUDE.length) : inputs.code;
      this.test = inputs.test;
    }
  }

  async step(ctx: StepContext): Promise<StepResult> {
    switch (this.phase) {
      case "plan": {
        // Only a coder made in plan mode starts in this phase.
        if (this.inputs.mode !== "plan") return this.finish();
        const inputs = PlannerDelegationSchema.parse({ task: this.inputs.task, uploads: this.inputs.uploads });
        return { action: { action: "delegate", args: { agent: "planner", thought: "Explore the images first.", inputs } }, usage: NO_USAGE };
      }
      case "write":
        return this.write(ctx);
      case "debug":
        return this.debug(ctx);
      case "finish":
      default:
        return this.finish();
    }
  }

  private runAction(thought: string): StepResult["action"] {
    this.phase = "run";
    return { action: "run_ipython", args: { code: `${CODE_PRELUDE}${this.code}\n\n# --- test ---\n${this.test}`, thought } };
  }

  private async write(ctx: StepContext): Promise<StepResult> {
    const base: ModelMessage[] = [{ role: "user", content: this.brief }];
    const code = await ctx.model.callTool("coder", { system: coderSystem(this.inputs.catalogue), messages: [...base, { role: "user", content: "Write the function with write_code." }], tools: coderTools, signal: ctx.signal, onDraft: ctx.onDraft });
    this.code = code.args.code;
    const test = await ctx.model.callTool("coder", {
      system: coderSystem(this.inputs.catalogue),
      messages: [...base, { role: "user", content: `The function:\n\`\`\`python\n${this.code}\n\`\`\`\nNow write its test with write_test.` }],
      tools: testTools,
      signal: ctx.signal,
      onDraft: ctx.onDraft,
    });
    this.test = test.args.test;
    return { action: this.runAction("Testing the function in a fresh kernel."), usage: addUsage(code.usage, test.usage) };
  }

  private async debug(ctx: StepContext): Promise<StepResult> {
    this.debugs++;
    const res = await ctx.model.callTool("coder", {
      system: coderSystem(this.inputs.catalogue),
      messages: [
        { role: "user", content: this.brief },
        { role: "user", content: `Code:\n\`\`\`python\n${this.code}\n\`\`\`\nTest:\n\`\`\`python\n${this.test}\n\`\`\`\nRunning them failed:\n${this.lastRun?.text ?? ""}\n\nFix it with fix_code (attempt ${this.debugs} of ${MAX_DEBUG_ATTEMPTS}).` },
      ],
      tools: fixTools,
      signal: ctx.signal,
      onDraft: ctx.onDraft,
    });
    const fix = res.args;
    if (fix.code) this.code = fix.code;
    if (fix.test) this.test = fix.test;
    return { action: this.runAction(fix.thoughts), usage: res.usage };
  }

  private finish(): StepResult {
    const success = this.failure === null && this.lastRun !== null && !this.lastRun.failed;
    const summary = this.failure
      ? `The code could not be produced: ${this.failure}`
      : `${success ? "The function ran its test successfully." : `The function still failed its test after ${MAX_DEBUG_ATTEMPTS} fixes.`}\n\nFinal code:\n\`\`\`python\n${this.code}\n\`\`\`\n\nTest output:\n${this.lastRun?.text ?? "(not run)"}`;
    return {
      action: {
        action: "finish",
        args: {
          outputs: CodeContextSchema.parse({ code: `${CODE_PRELUDE}${this.code}`, test: this.test, success, testResult: this.lastRun?.text ?? "", summary } satisfies CodeContext),
          final_thought: success ? "Code ready." : "Code failed.",
        },
      },
      usage: NO_USAGE,
    };
  }

  describeOutputs(outputs: Record<string, unknown>): string {
    return describeCode(outputs);
  }

  observe(event: ArgusEvent): void {
    if (!("observation" in event)) return;
    if (event.observation === "delegate") {
      const plan = PlanContextSchema.safeParse(event.extras.outputs);
      if (!plan.success || !plan.data.plan) {
        const error = (event.extras.outputs as { error?: unknown }).error;
        this.failure = typeof error === "string" ? error : "the planner returned no plan";
        this.phase = "finish";
        return;
      }
      this.brief = planBrief(plan.data, this.inputs.files);
      this.phase = "write";
      return;
    }
    if (event.observation === "run_ipython" || event.observation === "error") {
      const failed = event.observation === "error" || event.extras.failed === true;
      this.lastRun = { text: event.content, failed };
      this.phase = failed && this.debugs < MAX_DEBUG_ATTEMPTS ? "debug" : "finish";
    }
  }
}
