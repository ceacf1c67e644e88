import { z } from "zod";
import type { AgentMessage } from "@/lib/foundation/protocol/agent-message";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import { toAgentMessage } from "@/lib/features/runtime/projection";
import type { AgentDescriptor } from "../descriptor";
import { ConversationAgent } from "./agent";
import { lastCode } from "./last-code";
import { browsingConversationTools, conversationTools } from "./tools";

/** VisionAgentV2: talks with the person, and hands vision work to the coder and web pages to the browser. */
export const conversationDescriptor: AgentDescriptor<z.ZodObject<Record<string, never>>> = {
  card: agentCard("conversation")!,
  tools: { reply: conversationTools, replyOrBrowse: browsingConversationTools },
  // The root agent: the run (the log so far and the person's message) is its input.
  inputs: z.object({}),
  outputs: z.object({}),
  async make(_inputs, { deps, run, requested }) {
    const start = deps.startBatch;
    const history = run.events.map(toAgentMessage).filter((m): m is AgentMessage => m !== null);
    return new ConversationAgent({
      history,
      request: { text: run.text, uploads: requested.map((f) => f.id) },
      lastCode: lastCode(run.events),
      canBrowse: deps.browser !== null,
      startBatch: start ? () => start(run.sessionId) : null,
    });
  },
  describeOutputs: () => "The conversation finished.",
};
