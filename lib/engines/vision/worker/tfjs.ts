/**
 * TensorFlow.js on its WebAssembly backend, inside a vision worker thread.
 * The WASM backend ships its .wasm in the npm package (no native download, unlike
 * tfjs-node) and runs the graph models at near-native speed with SIMD. Its
 * Emscripten glue installs process-wide uncaughtException handlers, one more
 * reason it runs only in a worker thread, never on the server's main thread.
 */
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs-core";
import { loadGraphModel, type GraphModel } from "@tensorflow/tfjs-converter";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { humanModelsDir, tfjsWasmDir } from "../model-files";

let backendReady: Promise<void> | undefined;

export function tfjsReady(): Promise<void> {
  backendReady ??= (async () => {
    setWasmPaths(tfjsWasmDir());
    // One thread per worker: the service already runs one inference per worker.
    if (!(await tf.setBackend("wasm"))) throw new Error("the TF.js WebAssembly backend did not start");
    await tf.ready();
  })();
  return backendReady;
}

interface GraphModelJson {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
  signature?: object;
  userDefinedMetadata?: Record<string, object>;
}

/** Loads <stem>.json and its weight shards from the human-models folder (file:// loading needs tfjs-node, so read them ourselves). */
export async function loadHumanModel(stem: string): Promise<GraphModel> {
  await tfjsReady();
  const dir = humanModelsDir();
  const json = JSON.parse(await fs.promises.readFile(path.join(dir, `${stem}.json`), "utf8")) as GraphModelJson;
  const shards = await Promise.all(
    json.weightsManifest.flatMap((group) => group.paths.map((file) => fs.promises.readFile(path.join(dir, file)))),
  );
  const weights = Buffer.concat(shards);
  const weightData = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer;
  return loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
      weightData,
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy ?? undefined,
      signature: json.signature,
      userDefinedMetadata: json.userDefinedMetadata,
    }),
  );
}

/** An image given as packed RGB bytes, as the service hands it to the worker. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** [1, H, W, 3] float32 tensor of 0-255 values. */
export function imageTensor(image: RgbImage): tf.Tensor4D {
  return tf.tidy(() =>
    tf.expandDims(tf.cast(tf.tensor3d(image.data, [image.height, image.width, 3], "int32"), "float32"), 0),
  ) as tf.Tensor4D;
}

export { tf };

/**
 * The image padded with black on the right or bottom to a square, then scaled to
 * size x size (models trained on squares would otherwise see people squashed).
 * A model coordinate c in [0, 1] is pixel c * side of the image.
 */
export function squareInput(image: RgbImage, size: number): { input: tf.Tensor4D; side: number } {
  const side = Math.max(image.width, image.height);
  const input = tf.tidy(() => {
    const pixels = imageTensor(image);
    const padded = tf.pad(pixels, [
      [0, 0],
      [0, side - image.height],
      [0, side - image.width],
      [0, 0],
    ]);
    return tf.image.resizeBilinear(padded as tf.Tensor4D, [size, size]);
  });
  return { input, side };
}

/** A rectangle of the image as an image of its own (rows copied; the rectangle must lie inside). */
export function cropImage(image: RgbImage, left: number, top: number, width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * image.width + left) * 3;
    data.set(image.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { data, width, height };
}
