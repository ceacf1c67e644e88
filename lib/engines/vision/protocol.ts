/**
 * Messages between the vision service (server's main thread) and its worker
 * threads. Plain structured-clone data; the image's pixels travel as a
 * transferred buffer, never copied.
 */
import type { VisionFamily } from "./catalogue";

export interface WorkerImage {
  /** Packed RGB, row-major, 3 bytes a pixel. */
  data: Uint8Array;
  width: number;
  height: number;
  /** The size of the image the caller gave (boxes are answered in its pixels). */
  originalWidth: number;
  originalHeight: number;
}

export interface RunRequest {
  type: "run";
  id: number;
  tool: string;
  family: VisionFamily;
  params: Record<string, unknown>;
  image: WorkerImage;
}

export type WorkerReply =
  | { type: "done"; id: number; result: unknown; seconds: number }
  | { type: "error"; id: number; code: "failed" | "unavailable"; message: string }
  | { type: "model"; family: VisionFamily; models: string[]; state: "loading" | "loaded" | "failed"; error?: string };
