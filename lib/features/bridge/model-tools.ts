import { z } from "zod";
import type { BridgeCallContext, BridgeMethods } from "@/lib/engines/kernels/bridge";
import { imagePart, MAX_EDGE } from "@/lib/engines/llm/images";
import type { ModelFor } from "./session-model";

const Params = z.object({
  prompt: z.string().min(1).max(10_000),
  images: z.array(z.string().min(1).max(500)).max(8).default([]),
});

/** Largest picture a cell may hand to the model by path. */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/**
 * A picture the kernel hands over by path: read through the call's `readFile`, which resolves
 * it inside that kernel's own workspace without following any link (workspace-fs on a shared
 * disk, the kernel's checked chunks otherwise), so the server never sends a host file to the model.
 */
function readWorkspaceImage(ctx: BridgeCallContext, relative: string): Promise<Buffer> {
  return ctx.readFile(relative, MAX_IMAGE_BYTES);
}

const VQA_SYSTEM = "You answer questions about images precisely and briefly. If you cannot tell, say so; never guess counts.";
const SUGGESTION_SYSTEM =
  "You are an expert in classical computer vision (OpenCV, scikit-image, tesseract). Given images and a goal, suggest a concrete approach in a few numbered steps, naming functions and starting parameters.";

const DescribeParams = z.object({ image: z.string().min(1).max(500), focus: z.string().max(2_000).nullable().optional() });
const ClassifyParams = z.object({
  image: z.string().min(1).max(500),
  labels: z.array(z.string().min(1).max(200)).min(2).max(50),
  multi_label: z.boolean().default(false),
});

async function imageFrom(ctx: BridgeCallContext, relative: string) {
  const { type, image, mediaType } = await imagePart(await readWorkspaceImage(ctx, relative), { maxEdge: MAX_EDGE });
  return { type, image, mediaType };
}

/** vqa(prompt, images) and suggestion(prompt, images), called from the planner's Python over the bridge. */
export function modelBridgeMethods(modelFor: ModelFor): BridgeMethods {
  const ask = (system: string) => async (raw: Record<string, unknown>, ctx: BridgeCallContext) => {
    const { prompt, images } = Params.parse(raw);
    const parts = await Promise.all(
      images.map(async (p) => {
        const { type, image, mediaType } = await imagePart(await readWorkspaceImage(ctx, p), { maxEdge: MAX_EDGE });
        return { type, image, mediaType };
      }),
    );
    const res = await (await modelFor(ctx)).text("vqa", {
      system,
      messages: [{ role: "user", content: [{ type: "text", text: prompt }, ...parts] }],
      signal: ctx.signal,
    });
    ctx.charge(res.usage);
    return res.text;
  };
  return {
    vqa: ask(VQA_SYSTEM),
    suggestion: ask(SUGGESTION_SYSTEM),
    /** describe(image, focus=None): a short description of the picture. */
    async describe(raw, ctx) {
      const { image, focus } = DescribeParams.parse(raw);
      const res = await (await modelFor(ctx)).text("vqa", {
        system: VQA_SYSTEM,
        messages: [{ role: "user", content: [{ type: "text", text: focus ? `Describe this image, focusing on: ${focus}` : "Describe this image in a few sentences." }, await imageFrom(ctx, image)] }],
        signal: ctx.signal,
      });
      ctx.charge(res.usage);
      return res.text;
    },
    /** classify(image, labels): a score per label, from a validated tool call rather than free text. */
    async classify(raw, ctx) {
      const { image, labels, multi_label } = ClassifyParams.parse(raw);
      const res = await (await modelFor(ctx)).callTool("vqa", {
        system: VQA_SYSTEM,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: `Score how well each label fits this image, from 0 to 1${multi_label ? " (several may fit)" : " (exactly one fits best; scores should sum to about 1)"}. Labels: ${labels.join(", ")}. Call give_scores.` },
              await imageFrom(ctx, image),
            ],
          },
        ],
        tools: {
          give_scores: {
            description: "Report a score for every label.",
            schema: z.object({ scores: z.array(z.object({ label: z.enum(labels as [string, ...string[]]), score: z.number().min(0).max(1) })).min(1) }),
          },
        },
        signal: ctx.signal,
      });
      ctx.charge(res.usage);
      return res.args.scores;
    },
  };
}
