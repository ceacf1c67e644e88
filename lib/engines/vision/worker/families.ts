/**
 * Which models each family loads and how each tool of the family turns an image
 * and its (already validated) parameters into its JSON result.
 */
import type { VisionFamily } from "../catalogue";
import type { CocoLabel } from "../coco-labels";
import { toOriginalPixels } from "../boxes";
import type { WorkerImage } from "../protocol";
import { loadObjectDetector } from "./objects";
import { loadFaceDetector } from "./faces";
import { loadPoseDetector } from "./poses";
import { loadPeopleSegmenter } from "./segmentation";
import { loadTextReader } from "./text";

export type FamilyRunner = (tool: string, image: WorkerImage, params: Record<string, unknown>) => Promise<unknown>;

const original = (image: WorkerImage) => ({ width: image.originalWidth, height: image.originalHeight });
const scale = (image: WorkerImage) => [image.originalWidth / image.width, image.originalHeight / image.height] as const;
const round1 = (value: number) => Math.round(value * 10) / 10;

/** One CenterNet per worker, shared by the objects family and the segmenter (which finds people first). */
let objectDetector: ReturnType<typeof loadObjectDetector> | undefined;
function sharedObjectDetector(): ReturnType<typeof loadObjectDetector> {
  objectDetector ??= loadObjectDetector().catch((error: unknown) => {
    objectDetector = undefined;
    throw error;
  });
  return objectDetector;
}

async function objects(): Promise<FamilyRunner> {
  const detector = await sharedObjectDetector();
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
    case "faces": {
      const detector = await loadFaceDetector();
      return async (_tool, image, params) => {
        const faces = await detector.detect(image, params.box_threshold as number);
        const [sx, sy] = scale(image);
        return toOriginalPixels(faces, image, original(image)).map((face) => ({
          ...face,
          keypoints: face.keypoints.map(([x, y]) => [round1(x * sx), round1(y * sy)]),
        }));
      };
    }
    case "poses": {
      const detector = await loadPoseDetector();
      return async (_tool, image, params) => {
        const threshold = params.box_threshold as number;
        const people = await (await sharedObjectDetector()).detect(image, threshold, ["person"]);
        const poses = await detector.detect(image, people);
        const [sx, sy] = scale(image);
        return toOriginalPixels(poses, image, original(image)).map((pose) => ({
          ...pose,
          keypoints: pose.keypoints.map((point) => ({ ...point, x: round1(point.x * sx), y: round1(point.y * sy) })),
        }));
      };
    }
    case "segmentation": {
      const segmenter = await loadPeopleSegmenter(await sharedObjectDetector());
      return async (_tool, image, params) => segmenter.segment(image, params.threshold as number, original(image));
    }
    case "text": {
      // One ONNX Runtime thread: the service already runs one call per worker thread.
      const reader = await loadTextReader(1);
      return async (_tool, image, params) => reader.read(image, params.min_score as number);
    }
    default: {
      const unknown: never = family;
      throw new Error(`no models for the family ${String(unknown)}`);
    }
  }
}
