import { z } from "zod";
import { isArgusError, toErrorBody } from "@/lib/errors";
import type { BridgeMethods } from "@/lib/kernels/bridge";
import { callTool } from "./call-tool";
import type { VisionTools } from "./port";

const Params = z.object({
  name: z.string().min(1).max(100),
  /** Workspace-relative path of the PNG the cell wrote (argus.bridge.image_ref). */
  image: z.string().min(1).max(500),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** What the kernel gets back: the HTTP status and body the same call would get over HTTP. */
export interface BridgeToolAnswer {
  status: number;
  body: unknown;
  retryAfter?: number;
}

/**
 * `vision_tool {name, image, params}`: a neural tool called from a cell (python/argus/tools/neural.py).
 * The call is admitted like every bridge call (the cell's call limit, the run's budgets) before it
 * gets here. The image is read through the call's `readFile` (inside that kernel's workspace, never
 * following a link). The answer carries the HTTP status and body, so the kernel handles one shape
 * whether it came over the bridge or over HTTP, and the same call gives the same JSON either way.
 */
export function visionBridgeMethods(vision: VisionTools, maxImageBytes: number): BridgeMethods {
  return {
    async vision_tool(raw, ctx): Promise<BridgeToolAnswer> {
      const { name, image, params } = Params.parse(raw);
      try {
        const bytes = await ctx.readFile(image, maxImageBytes);
        return { status: 200, body: await callTool(vision, name, bytes, params, ctx.signal) };
      } catch (error) {
        if (!isArgusError(error)) throw error;
        return { status: error.status, body: toErrorBody(error), ...(error.retryAfterSeconds === undefined ? {} : { retryAfter: error.retryAfterSeconds }) };
      }
    },
  };
}
