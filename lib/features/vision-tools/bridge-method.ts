import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { isArgusError, toErrorBody, type ArgusError } from "@/lib/foundation/errors";
import type { BridgeMethods } from "@/lib/engines/kernels/bridge";
import { callTool } from "./call-tool";
import type { VisionTools } from "./port";

const Params = z.object({
  name: z.string().min(1).max(100),
  /** Workspace-relative path of the PNG the cell wrote (argus.bridge.image_ref). */
  image: z.string().min(1).max(500),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** How long a cell's call waits for room in a full inference queue before it is answered 429. */
const BUSY_WAIT_MS = 30_000;

/** What the kernel gets back: the HTTP status and body the same call would get over HTTP. */
export interface BridgeToolAnswer {
  status: number;
  body: unknown;
  retryAfter?: number;
}

/**
 * `vision_tool {name, image, params}`: a neural tool called from a cell (python/argus/tools/neural.py).
 * The call is admitted like every bridge call (the cell's call limit, the run's budgets) before it
 * gets here; a full inference queue is waited out (up to 30 s) rather than answered 429. The image is read through the call's `readFile` (inside that kernel's workspace, never
 * following a link). The answer carries the HTTP status and body, so the kernel handles one shape
 * whether it came over the bridge or over HTTP, and the same call gives the same JSON either way.
 */
export function visionBridgeMethods(vision: VisionTools, maxImageBytes: number, busyWaitMs = BUSY_WAIT_MS): BridgeMethods {
  return {
    async vision_tool(raw, ctx): Promise<BridgeToolAnswer> {
      const { name, image, params } = Params.parse(raw);
      const giveUpAt = Date.now() + busyWaitMs;
      try {
        const bytes = await ctx.readFile(image, maxImageBytes);
        for (;;) {
          try {
            return { status: 200, body: await callTool(vision, name, bytes, params, ctx.signal) };
          } catch (error) {
            // A full queue is waited out here, on a timer, rather than by the cell calling again:
            // each call from the cell would count against its bridge-call limit.
            const waitMs = isArgusError(error) && error.type === "rate_limited" ? (error.retryAfterSeconds ?? 1) * 1000 : null;
            if (waitMs === null || Date.now() + waitMs > giveUpAt) throw error;
            await sleep(waitMs, undefined, { signal: ctx.signal });
          }
        }
      } catch (error) {
        if (!isArgusError(error)) throw error;
        return answerOf(error);
      }
    },
  };
}


function answerOf(error: ArgusError): BridgeToolAnswer {
  return { status: error.status, body: toErrorBody(error), ...(error.retryAfterSeconds === undefined ? {} : { retryAfter: error.retryAfterSeconds }) };
}
