import { NO_USAGE, type Agent, type StepContext, type StepResult } from "@/agents/types";
import type { AgentMessage } from "@/lib/foundation/protocol/agent-message";
import type { ArgusEvent } from "@/lib/foundation/protocol/events";
import { BrowserDelegationSchema, BrowserOutputsSchema } from "../browser/inputs";
import { CoderDelegationSchema } from "../coder/inputs";
import { BROWSE_SYSTEM, browseOutcomeInstruction, CONVERSATION_SYSTEM, outcomeInstruction, renderConversation } from "./prompt";
import { browsingConversationTools, conversationTools, type ReplyArgs } from "./tools";

/** The upload ids in a browser's outputs (`images: [{id, name, url}]`). */
function savedImageIds(outputs: unknown): string[] {
  const read = BrowserOutputsSchema.safeParse(outputs);
  return read.success ? read.data.images.map((i) => i.id) : [];
}

export interface ConversationInputs {
  /** The session's conversation so far (user, conversation, code results, outcomes). */
  history: AgentMessage[];
  /** The person's latest message and its uploads (file ids). */
  request: { text: string; uploads: string[] };
  /** The last code the coder produced in this session, for edit_code. */
  lastCode: { code: string; test: string } | null;
  /** A browser model is configured: the `browse` action is offered. */
  canBrowse: boolean;
  /**
   * Starts a batch run of the session's latest function on all its images and
   * says what it did in a sentence for the person (run_on_all_images); null where
   * batches cannot run. Never throws: a refusal is the sentence.
   */
  startBatch: (() => Promise<string>) | null;
}

/** reply → act → report; after a browse, the report may act once more (vision code on what it saved). */
type Phase = "reply" | "act" | "report" | "follow_up" | "done";

/**
 * VisionAgentV2: one model call gives one response and at most one action.
 * A vision action delegates to the coder (who delegates to the planner); when
 * the coder returns, a second call tells the person the outcome.
 */
export class ConversationAgent implements Agent {
  readonly name = "conversation" as const;
  private phase: Phase = "reply";
  private chosen: ReplyArgs | null = null;
  private outcome = "";
  /** Upload ids the browser saved, for the vision code that may follow. */
  private saved: string[] = [];

  constructor(private readonly inputs: ConversationInputs) {}

  async step(ctx: StepContext): Promise<StepResult> {
    if (this.phase === "reply" || this.phase === "report" || this.phase === "follow_up") {
      const transcript = renderConversation(this.inputs.history);
      const ask = this.phase === "report" ? `\n\n${outcomeInstruction(this.outcome)}` : this.phase === "follow_up" ? `\n\n${browseOutcomeInstruction(this.outcome)}` : "";
      const tools = this.phase === "follow_up" ? conversationTools : this.phase === "reply" && this.inputs.canBrowse ? browsingConversationTools : conversationTools;
      const res = await ctx.model.callTool("conversation", {
        system: this.inputs.canBrowse ? `${CONVERSATION_SYSTEM}\n\n${BROWSE_SYSTEM}` : CONVERSATION_SYSTEM,
        messages: [{ role: "user", content: `${transcript}${ask}` }],
        tools,
        signal: ctx.signal,
        onDraft: ctx.onDraft,
      });
      const args: ReplyArgs = res.args;
      const mayAct = this.phase === "reply" || (this.phase === "follow_up" && args.action === "generate_or_edit_vision_code");
      if (mayAct && args.action) {
        this.chosen = args;
        this.phase = "act";
      } else {
        this.phase = "done";
      }
      return { action: { action: "message", args: { content: args.response } }, usage: res.usage };
    }
    if (this.phase === "act" && this.chosen?.action === "run_on_all_images") {
      // A batch runs on its own (the preview pane shows it): say it started, and end the turn.
      this.phase = "done";
      // Stepped again from the log, the batch it started is not started twice (its words are in the log).
      const said = ctx.replaying ? "" : this.inputs.startBatch ? await this.inputs.startBatch() : "Batch runs are not available on this server (it runs without Python kernels).";
      return { action: { action: "message", args: { content: said } }, usage: NO_USAGE };
    }
    if (this.phase === "act") return { action: this.act(), usage: NO_USAGE };
    return { action: { action: "finish", args: { outputs: {}, final_thought: "" } }, usage: NO_USAGE };
  }

  private act(): StepResult["action"] {
    const chosen = this.chosen;
    if (chosen?.action === "browse") {
      // The tool's schema makes browse come with both.
      const inputs = BrowserDelegationSchema.parse({ task: chosen.browse_task, url: chosen.url });
      return { action: "delegate", args: { agent: "browser", thought: "This needs a web page.", inputs } };
    }
    const last = chosen?.action === "edit_code" ? this.inputs.lastCode : null;
    // Vision code after a browse works on the pictures it saved; otherwise on the person's uploads.
    const uploads = this.saved.length > 0 ? this.saved : this.inputs.request.uploads;
    const task = this.saved.length > 0 ? `${renderConversation(this.inputs.history)}\n\nThe browser saved these pictures for you: ${this.outcome}` : renderConversation(this.inputs.history);
    return {
      action: "delegate",
      args: {
        agent: "coder",
        thought: last ? "A small change to the existing code." : "This needs vision code.",
        inputs: CoderDelegationSchema.parse(
          last ? { mode: "edit", feedback: this.inputs.request.text, code: last.code, test: last.test, uploads } : { mode: "plan", task, uploads },
        ),
      },
    };
  }

  observe(event: ArgusEvent): void {
    if ("observation" in event && event.observation === "delegate") {
      this.outcome = event.content;
      const fromBrowser = this.chosen?.action === "browse";
      const images = fromBrowser ? savedImageIds(event.extras.outputs) : [];
      this.saved = images;
      // After a browse that saved pictures, one more action may follow; otherwise report and end.
      this.phase = fromBrowser && images.length > 0 ? "follow_up" : "report";
      if (fromBrowser) this.chosen = null;
    }
  }
}
