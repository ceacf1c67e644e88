/**
 * What the planner agent records about each turn and each picture: the input
 * its memory (memory.ts) builds the model's context from.
 */

import type { ImageRef, PrepareImage } from "@/agents/types";

export type { ImageRef, PrepareImage };

export interface PlannerTurnRecord {
  /** 1-based. */
  turn: number;
  kind: "code" | "ask";
  thinking: string;
  /** kind "code": the code that ran. */
  code?: string;
  /** kind "ask". */
  question?: string;
  options?: string[];
  observation: {
    /** The full text, untruncated; this module does the cutting. */
    text: string;
    /** Images the cell displayed and the ones it viewed, in order. */
    images: ImageRef[];
    /** fileIds passed to view_image (may name an upload or an earlier image). */
    viewed: string[];
  };
  /** How many auto-fixes this turn needed (informational, not rendered). */
  fixAttempts?: number;
  /** Said to the model with this turn's observation (e.g. that calls after the first were ignored). */
  notice?: string;
  /** kind "code": the cell raised. */
  failed?: boolean;
}

