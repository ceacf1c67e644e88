/**
 * What the controller needs to carry out a browsing step, without knowing
 * browsers: the composition root gives it an implementation (lib/engines/computer/
 * browser-steps.ts). The step's command is the log's `browser_actions` text.
 */
import type { ImageRef } from "@/agents/types";
import type { PersonQuestion } from "@/lib/engines/kernels/bridge";
import type { ObservationInput } from "@/lib/foundation/protocol/event-builders";

export interface BrowseRequest {
  sessionId: string;
  /** `browse`: open this URL (the first step); `browse_interactive`: the command JSON. */
  step: { kind: "open"; url: string } | { kind: "command"; json: string };
  signal: AbortSignal;
  /** Asks the person before a risky action (a safety card); resolves with the answer's text. */
  ask: (question: PersonQuestion) => Promise<string>;
}

export interface BrowseResult {
  observation: ObservationInput<"browse">;
  /** The screenshot the observation shows (one), for the agent's next look. */
  images: ImageRef[];
}

export interface BrowserPort {
  perform(request: BrowseRequest): Promise<BrowseResult>;
}
