/** What a run needs from the rest of Argus (the composition root passes it to every controller). */
import type { Agent, ImageRef, StepResult } from "@/agents/types";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { AgentName, ArgusEvent } from "@/lib/foundation/protocol/events";
import type { BrowserPort } from "./browser-port";
import type { DraftChannel } from "./draft-channel";
import type { EventLog } from "./event-log";

/** A picture a cell made, stored as a session file. */
export interface CellImage extends ImageRef {
  url: string;
  /** The cell asked to look at it (view_image). */
  viewed: boolean;
}

/** What runs need from the rest of Argus: the log, the kernels, and where a cell's pictures go. */
export interface RunServices {
  events: EventLog;
  /** Where the steps' live drafts go (ephemeral: never written to the log). */
  drafts: DraftChannel;
  /** Null when Jupyter is off. */
  kernels: KernelRegistry | null;
  storeCellImages(sessionId: string, execution: Execution, label: string): Promise<CellImage[]>;
  cellTimeoutMs: number;
  bridgeCallsPerCell: number;
  /** Carries out browsing steps; null when no browser model is configured (or Chromium is missing). */
  browser: BrowserPort | null;
  /** Told each time an agent finishes, with its outputs (the coder's result is kept as a session function). */
  onAgentFinished?(r: { sessionId: string; runId: string; agent: AgentName; outputs: Record<string, unknown> }): Promise<void>;
}

/** Where a run stood, rebuilt from the log by another instance (run-rebuild.ts): its stack, bottom first, and its unfinished action. */
export interface RebuiltRun {
  stack: Agent[];
  firstSeq: number;
  /** Steps the run took so far: the next one's drafts carry the number the one in flight had. */
  steps: number;
  unfinished: { action: ArgusEvent; result: StepResult } | null;
}
