/**
 * The neural vision tools as data: name, Python-style signature, docstring and
 * the zod schema of their keyword arguments (everything but the image). Pure:
 * no model is loaded here, so routes, the bridge and prompts can import it.
 * The docstrings follow python/argus/tools/*.py: what it does, "When to use:",
 * Args (which way to turn each knob) and Returns.
 */
import { z } from "zod";
import { COCO_LABELS, cocoLabelFor, type CocoLabel } from "./coco-labels";

const threshold = (fallback: number, description: string) => z.number().min(0).max(1).default(fallback).describe(description);
const BOX_THRESHOLD = "minimum detection score in [0, 1]: lower finds more (and more false hits), higher keeps only sure ones";

/** `labels` accepts one name or a list, in the words people use; unknown names are refused with the known ones listed. */
const labelsParam = z
  .union([z.string(), z.array(z.string()).max(80)])
  .nullable()
  .default(null)
  .describe("COCO class name(s) to keep, as people say them (\"person\", \"cars\", \"cup\"); null keeps every class")
  .transform((value, ctx): CocoLabel[] | null => {
    if (value === null) return null;
    const names = typeof value === "string" ? [value] : value;
    const unknown = names.filter((name) => cocoLabelFor(name) === undefined);
    if (unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message:
          `unknown label${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => JSON.stringify(name)).join(", ")}; ` +
          `the detector knows these COCO classes: ${COCO_LABELS.join(", ")}`,
      });
      return z.NEVER;
    }
    return [...new Set(names.map((name) => cocoLabelFor(name) as CocoLabel))];
  });

export const DEFAULT_OBJECT_THRESHOLD = 0.3;
export const DEFAULT_FACE_THRESHOLD = 0.5;
export const DEFAULT_POSE_THRESHOLD = 0.3;

const detectObjectsParams = z.strictObject({
  labels: labelsParam,
  box_threshold: threshold(DEFAULT_OBJECT_THRESHOLD, BOX_THRESHOLD),
});
const detectPeopleParams = z.strictObject({ box_threshold: threshold(DEFAULT_OBJECT_THRESHOLD, BOX_THRESHOLD) });
const detectFacesParams = z.strictObject({ box_threshold: threshold(DEFAULT_FACE_THRESHOLD, BOX_THRESHOLD) });
const detectPosesParams = z.strictObject({ box_threshold: threshold(DEFAULT_POSE_THRESHOLD, BOX_THRESHOLD) });
const segmentPeopleParams = z.strictObject({ threshold: threshold(0.5, "how sure the model must be, in [0, 1], that a pixel is a person: lower grows the mask") });
const readTextParams = z.strictObject({ min_score: threshold(0.5, "minimum recognition confidence in [0, 1] for a line of text to be kept") });

export type VisionFamily = "objects" | "faces" | "poses" | "segmentation" | "text";

/** The models behind each family, as health() names them. */
export const FAMILY_MODELS: Record<VisionFamily, string[]> = {
  objects: ["centernet"],
  faces: ["blazeface"],
  poses: ["movenet-lightning", "centernet"],
  segmentation: ["selfie", "centernet"],
  text: ["pp-ocrv4-det", "pp-ocrv4-rec"],
};

export interface VisionTool<S extends z.ZodType = z.ZodType> {
  name: string;
  signature: string;
  doc: string;
  params: S;
  /** Which worker-side model family serves it (models load once per family, on first use). */
  family: VisionFamily;
}

function tool<S extends z.ZodType>(spec: VisionTool<S>): VisionTool<S> {
  return spec;
}

const DETECTION_RETURNS = `(pixels of the image given, x2/y2 exclusive), best score first`;

export const VISION_TOOLS = [
  tool({
    name: "detect_objects",
    signature: `detect_objects(image, labels=None, box_threshold=${DEFAULT_OBJECT_THRESHOLD})`,
    family: "objects",
    params: detectObjectsParams,
    doc: `Find everyday objects of the 80 COCO classes (people, vehicles, animals, furniture,
kitchenware, electronics...) with a neural detector that runs on the Argus server.

When to use: "how many cars / cups / dogs are there", "where is the laptop", finding
objects by their class in real photos. Use detect_people for people only, and a
classical tool (find_template, segment_color, count_objects) for things outside
the COCO classes (coins, cells, parts, logos).

Args:
    image: a file path, RGB numpy array, PIL image or video frame dict.
    labels: a class name or a list of them, as people say them ("person",
        "people", "cars", "cup", "phone", "tv"); None (default) keeps every class.
        An unknown name is an error that lists the known classes.
    box_threshold: minimum score in [0, 1] (default ${DEFAULT_OBJECT_THRESHOLD}); lower it (0.15) to find
        small or half-hidden objects (more false hits), raise it (0.5) to keep only
        sure ones.

Returns:
    A list of {"label": str, "score": float, "bbox": [x1, y1, x2, y2]}
    ${DETECTION_RETURNS}. Empty list when nothing is found.`,
  }),
  tool({
    name: "detect_people",
    signature: `detect_people(image, box_threshold=${DEFAULT_OBJECT_THRESHOLD})`,
    family: "objects",
    params: detectPeopleParams,
    doc: `Find people (whole or partly visible bodies, any pose, seen from any side) with a
neural object detector that runs on the Argus server.

When to use: counting people in street, crowd, sports, office or family photos,
finding where people are before cropping them. Works on people sitting, seen from
behind or cut by the frame, where the classical HOG detector misses them. Use
detect_poses for their body keypoints and segment_people for their outline.

Args:
    image: a file path, RGB numpy array, PIL image or video frame dict.
    box_threshold: minimum score in [0, 1] (default ${DEFAULT_OBJECT_THRESHOLD}); lower it (0.15) for small,
        distant or crowded people (more false hits), raise it (0.5) to keep only
        clearly visible people.

Returns:
    A list of {"label": "person", "score": float, "bbox": [x1, y1, x2, y2]}
    ${DETECTION_RETURNS}. Empty list when nobody is found.`,
  }),
  tool({
    name: "detect_faces",
    signature: `detect_faces(image, box_threshold=${DEFAULT_FACE_THRESHOLD})`,
    family: "faces",
    params: detectFacesParams,
    doc: `Find human faces, frontal or turned up to about profile, with a neural face detector
(BlazeFace) that runs on the Argus server, plus 6 landmarks per face.

When to use: counting faces, finding where faces are to crop, blur or check them.
Faces smaller than about 1/20 of the image's longer side are missed; crop and
call again for faces in a crowd far away.

Args:
    image: a file path, RGB numpy array, PIL image or video frame dict.
    box_threshold: minimum score in [0, 1] (default ${DEFAULT_FACE_THRESHOLD}); lower it (0.3) for small,
        dark or turned faces (more false hits), raise it (0.75) to keep only clear
        frontal faces (an animal's face can score up to about 0.7).

Returns:
    A list of {"label": "face", "score": float, "bbox": [x1, y1, x2, y2],
    "keypoints": [[x, y], ...]} ${DETECTION_RETURNS}; the 6 keypoints are the
    right eye, left eye, nose tip, mouth, right ear and left ear (the person's own
    right and left). Empty list when no face is found.`,
  }),
  tool({
    name: "detect_poses",
    signature: `detect_poses(image, box_threshold=${DEFAULT_POSE_THRESHOLD})`,
    family: "poses",
    params: detectPosesParams,
    doc: `Find people and their body pose: 17 keypoints per person (nose, eyes, ears,
shoulders, elbows, wrists, hips, knees, ankles). People are found as detect_people
finds them, then a neural pose model (MoveNet) places the keypoints on each of the
20 best-scoring people; both run on the Argus server.

When to use: "is anyone raising a hand", "who is sitting", counting people by
their bodies, measuring angles of arms or legs, sports and exercise photos.

Args:
    image: a file path, RGB numpy array, PIL image or video frame dict.
    box_threshold: minimum person score in [0, 1] (default ${DEFAULT_POSE_THRESHOLD}); lower it (0.15)
        for small or half-hidden people, raise it (0.5) to keep only clear ones.

Returns:
    A list of {"label": "person", "score": float, "bbox": [x1, y1, x2, y2],
    "keypoints": [{"name": "nose", "x": float, "y": float, "score": float}, ...]}
    ${DETECTION_RETURNS}. The 17 keypoints come in COCO order (nose, left_eye,
    right_eye, left_ear, right_ear, left_shoulder, right_shoulder, left_elbow,
    right_elbow, left_wrist, right_wrist, left_hip, right_hip, left_knee,
    right_knee, left_ankle, right_ankle; left and right are the person's own); a
    keypoint whose score is below 0.3 is a guess (hidden or out of frame).`,
  }),
  tool({
    name: "segment_people",
    signature: "segment_people(image, threshold=0.5)",
    family: "segmentation",
    params: segmentPeopleParams,
    doc: `Mark which pixels belong to people (a person-versus-background mask) with a neural
segmentation model that runs on the Argus server.

When to use: cutting people out, blurring or replacing the background, measuring
how much of the image people fill. People are found as detect_people finds them
(down to a score of 0.25) and each one is outlined, so someone the detector misses
is not in the mask. It gives one mask for all people together; use detect_people
to count or separate them.

Args:
    image: a file path, RGB numpy array, PIL image or video frame dict.
    threshold: how sure the model must be, in [0, 1], that a pixel is a person
        (default 0.5); lower it (0.3) to include hair and loose clothing, raise it
        (0.7) for a tighter mask.

Returns:
    {"width": int, "height": int, "coverage": float (fraction of pixels that are
    person), "mask_png_base64": str}: a greyscale PNG of the image's size, 255
    where a person is and 0 elsewhere. In Python:
    mask = np.array(Image.open(io.BytesIO(base64.b64decode(r["mask_png_base64"])))) > 127`,
  }),
  tool({
    name: "read_text",
    signature: "read_text(image, min_score=0.5)",
    family: "text",
    params: readTextParams,
    doc: `Read the text in a photo or screenshot with a neural OCR (PP-OCRv4 detection and
recognition) that runs on the Argus server: signs, labels, shop fronts, screens,
documents, in Latin script and Chinese.

When to use: text in real photos (scene text: street signs, packaging, number
plates, slides photographed at an angle), where Tesseract-based ocr struggles. The
notebook's read_text asks this reader first and rereads pages and near-empty
readings with Tesseract; for word boxes on a clean page use ocr.

Args:
    image: a file path, RGB numpy array, PIL image or video frame dict.
    min_score: minimum recognition confidence in [0, 1] for a line to be kept
        (default 0.5); lower it (0.3) to see doubtful readings, raise it (0.8) to
        keep only sure ones.

Returns:
    {"text": str, "lines": [{"text": str, "score": float, "bbox": [x1, y1, x2, y2]}]}:
    lines in reading order (top to bottom, then left to right), and "text" is them
    joined with newlines; {"text": "", "lines": []} when no text is found.`,
  }),
] as const;

export type VisionToolName = (typeof VISION_TOOLS)[number]["name"];

export const visionToolNames: readonly string[] = VISION_TOOLS.map((entry) => entry.name);

export function findVisionTool(name: string): VisionTool | undefined {
  return (VISION_TOOLS as readonly VisionTool[]).find((entry) => entry.name === name);
}
