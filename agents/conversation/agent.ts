import { NO_USAGE, type Agent, type StepContext, type StepResult } from "@/agents/types";
import type { AgentMessage } from "@/lib/protocol/agent-message";
import type { ArgusEvent } from "@/lib/protocol/events";
import { CONVERSATION_SYSTEM, outcomeInstruction, renderConversation } from "./prompt";
import { conversationTools, type ReplyArgs } from "./tools";

export interface ConversationInputs {
  /** The session's conversation so far (user, conversation, code results, outcomes). */
  history: AgentMessage[];
  /** The person's latest message and its uploads (file ids). */
  request: { text: string; uploads: string[] };
  /** The last code the coder produced in this session, for edit_code. */
  lastCode: { code: string; test: string } | null;
}

type Phase = "reply" | "act" | "report" | "done";

/**
 * VisionAgentV2: one model call gives one response and at most one action.
 * A vision action delegates to the coder (who delegates to the planner); when
 * the coder returns, a second call tells the person the outcome.
 */
export class ConversationAgent implements Agent {
  readonly name = "conversation" as const;
  private phase: Phase = "reply";
  private chosen: ReplyArgs["action"];
  private outcome = "";

  constructor(private readonly inputs: ConversationInputs) {}

  async step(ctx: StepContext): Promise<StepResult> {
    if (this.phase === "reply" || this.phase === "report") {
      const transcript = renderConversation(this.inputs.history);
      const ask = this.phase === "report" ? `\n\n${outcomeInstruction(this.outcome)}` : "";
      const res = await ctx.model.callTool("conversation", {
        system: CONVERSATION_SYSTEM,
        messages: [{ role: "user", content: `${transcript}${ask}` }],
        tools: conversationTools,
        signal: ctx.signal,
        onDraft: ctx.onDraft,
      });
      const args = res.args as ReplyArgs;
      if (this.phase === "reply" && args.action) {
        this.chosen = args.action;
        this.phase = "act";
      } else {
        this.phase = "done";
      }
      return { action: { action: "message", args: { content: args.response } }, usage: res.usage };
    }
    if (this.phase === "act") {
      const edit = this.chosen === "edit_code" && this.inputs.lastCode !== null;
      return {
        action: {
          action: "delegate",
          args: {
            agent: "coder",
            thought: edit ? "A small change to the existing code." : "This needs vision code.",
            inputs: edit
              ? { mode: "edit", feedback: this.inputs.request.text, code: this.inputs.lastCode!.code, test: this.inputs.lastCode!.test, uploads: this.inputs.request.uploads }
              : { mode: "plan", task: renderConversation(this.inputs.history), uploads: this.inputs.request.uploads },
          },
        },
        usage: NO_USAGE,
      };
    }
    return { action: { action: "finish", args: { outputs: {}, final_thought: "" } }, usage: NO_USAGE };
  }

  observe(event: ArgusEvent): void {
    if ("observation" in event && event.observation === "delegate") {
      this.outcome = event.content;
      this.phase = "report";
    }
  }
}
