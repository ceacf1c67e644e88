/**
 * Which models each family loads and how each tool of the family turns an image
 * and its (already validated) parameters into its JSON result.
 */
import type { VisionFamily } from "../catalogue";
export { FAMILY_MODELS } from "../catalogue";
import type { CocoLabel } from "../coco-labels";
import { toOriginalPixels } from "../boxes";
import type { WorkerImage } from "../protocol";
import { loadObjectDetector } from "./objects";

export type FamilyRunner = (tool: string, image: WorkerImage, params: Record<string, unknown>) => Promise<unknown>;

const original = (image: WorkerImage) => ({ width: image.originalWidth, height: image.originalHeight });

async function objects(): Promise<FamilyRunner> {
  const detector = await loadObjectDetector();
  return async (tool, image, params) => {
    const threshold = params.box_threshold as number;
    const labels = tool === "detect_people" ? (["person"] as CocoLabel[]) : (params.labels as CocoLabel[] | null);
    return toOriginalPixels(await detector.detect(image, threshold, labels), image, original(image));
  };
}

export async function loadFamily(family: VisionFamily): Promise<FamilyRunner> {
  switch (family) {
    case "objects":
      return objects();
    default:
      throw new Error(`the ${family} models are not installed in this build`);
  }
}
