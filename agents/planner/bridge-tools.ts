import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { BridgeMethods } from "@/lib/kernels/bridge";
import { imagePart } from "@/lib/llm/images";
import type { ModelClient } from "@/lib/llm/models";

const Params = z.object({
  prompt: z.string().min(1).max(10_000),
  images: z.array(z.string().min(1).max(500)).max(8).default([]),
});

/**
 * A picture the kernel hands over by path: it must be a file inside that
 * kernel's own workspace (symlinks resolved), so a cell cannot make the server
 * read anything else on the host.
 */
async function readWorkspaceImage(workspace: string, relative: string): Promise<Buffer> {
  if (path.isAbsolute(relative)) throw new Error(`image path must be relative to the workspace: ${relative}`);
  const root = await realpath(workspace);
  const full = await realpath(path.resolve(root, relative)).catch(() => {
    throw new Error(`no such image in the workspace: ${relative}`);
  });
  if (full !== root && !full.startsWith(`${root}${path.sep}`)) throw new Error(`image path leaves the workspace: ${relative}`);
  return readFile(full);
}

const VQA_SYSTEM = "You answer questions about images precisely and briefly. If you cannot tell, say so; never guess counts.";
const SUGGESTION_SYSTEM =
  "You are an expert in classical computer vision (OpenCV, scikit-image, tesseract). Given images and a goal, suggest a concrete approach in a few numbered steps, naming functions and starting parameters.";

/** vqa(prompt, images) and suggestion(prompt, images), called from the planner's Python over the bridge. */
export function modelBridgeMethods(model: ModelClient): BridgeMethods {
  const ask = (system: string) => async (raw: Record<string, unknown>, ctx: { workspace: string; signal: AbortSignal }) => {
    const { prompt, images } = Params.parse(raw);
    const parts = await Promise.all(
      images.map(async (p) => {
        const { type, image, mediaType } = await imagePart(await readWorkspaceImage(ctx.workspace, p), { maxEdge: 1568 });
        return { type, image, mediaType };
      }),
    );
    const res = await model.text("vqa", {
      system,
      messages: [{ role: "user", content: [{ type: "text", text: prompt }, ...parts] }],
      signal: ctx.signal,
    });
    return res.text;
  };
  return { vqa: ask(VQA_SYSTEM), suggestion: ask(SUGGESTION_SYSTEM) };
}
