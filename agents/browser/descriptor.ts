import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { AgentDescriptor } from "../descriptor";
import { BrowserAgent, describeBrowsing } from "./agent";
import { BrowserDelegationSchema, BrowserOutputsSchema } from "./inputs";
import { browserTools } from "./tools";

/** OpenAI's computer-use loop: works on a web page for the conversation agent, and may save pictures from it. */
export const browserDescriptor: AgentDescriptor<typeof BrowserDelegationSchema> = {
  card: agentCard("browser")!,
  // Over Chat Completions; the Responses engine offers the computer tool and these functions.
  tools: { move: browserTools },
  inputs: BrowserDelegationSchema,
  outputs: BrowserOutputsSchema,
  async make(inputs, { deps }) {
    if (!deps.browser) throw new Error("no browser model is configured");
    const b = deps.browser;
    return new BrowserAgent({ task: inputs.task, url: inputs.url, maxSteps: b.maxSteps, viewport: b.viewport, maxEdge: b.screenEdge }, b.makeEngine, deps.prepareImage);
  },
  describeOutputs: describeBrowsing,
};
