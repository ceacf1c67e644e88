/**
 * What the planner agent records about each turn and each picture: the input
 * its memory (memory.ts) builds the model's context from.
 */

export interface ImageRef {
  fileId: string;
  label: string;
  width: number;
  height: number;
}

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
}

/** Downscales and encodes one image for the model; production passes lib/llm's implementation. */
export type PrepareImage = (ref: ImageRef, maxEdge: number) => Promise<{ type: "image"; image: Uint8Array; mediaType: string }>;
