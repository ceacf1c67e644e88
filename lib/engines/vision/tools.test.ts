/**
 * Faces, poses, people masks and text with their real models on real photos:
 * python/tests/photos (Debian's opencv-doc), matplotlib's Grace Hopper and
 * scikit-image's astronaut. One service for the file: each family loads once.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVisionService, type VisionService } from "./service";

const PHOTOS = path.join(process.cwd(), "python/tests/photos");
const photo = (name: string) => fs.readFileSync(path.join(PHOTOS, name));
const GRACE_HOPPER = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg";
const ASTRONAUT = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";

type Box = [number, number, number, number];
interface Found {
  label: string;
  score: number;
  bbox: Box;
}

let service: VisionService;

beforeAll(() => {
  service = createVisionService({ workers: 1 });
});

afterAll(async () => {
  await service?.close();
});

const inside = (x: number, y: number, [x1, y1, x2, y2]: Box) => x1 <= x && x <= x2 && y1 <= y && y <= y2;

describe("detect_faces (BlazeFace)", () => {
  it("finds the one face of a portrait, with landmarks on it", async () => {
    for (const file of [GRACE_HOPPER, ASTRONAUT]) {
      const { result } = await service.call("detect_faces", fs.readFileSync(file), {});
      const faces = result as (Found & { keypoints: [number, number][] })[];
      expect(faces, file).toHaveLength(1);
      expect(faces[0]!.label).toBe("face");
      expect(faces[0]!.keypoints).toHaveLength(6);
      for (const [x, y] of faces[0]!.keypoints.slice(0, 4)) expect(inside(x, y, faces[0]!.bbox)).toBe(true);
    }
  });

  it("finds Messi's face (truth read off the photo: about x 222-259, y 97-134) and no face among fruit", async () => {
    const messi = (await service.call("detect_faces", photo("messi5.jpg"), {})).result as Found[];
    expect(messi).toHaveLength(1);
    expect(inside(240, 115, messi[0]!.bbox)).toBe(true);
    expect((await service.call("detect_faces", photo("fruits.jpg"), {})).result).toEqual([]);
  });
});

describe("detect_poses (CenterNet + MoveNet)", () => {
  it("puts the 17 named keypoints on the footballer: his nose on his face, his ankles below his hips", async () => {
    const { result } = await service.call("detect_poses", photo("messi5.jpg"), {});
    const poses = result as (Found & { keypoints: { name: string; x: number; y: number; score: number }[] })[];
    expect(poses.length).toBeGreaterThanOrEqual(1);
    const messi = poses[0]!;
    expect(messi.keypoints.map((point) => point.name)).toEqual([
      "nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder", "left_elbow",
      "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
      "right_ankle",
    ]);
    const point = (name: string) => messi.keypoints.find((entry) => entry.name === name)!;
    expect(inside(point("nose").x, point("nose").y, [215, 90, 265, 140])).toBe(true);
    expect(point("left_ankle").y).toBeGreaterThan(point("left_hip").y);
  });

  it("gives each pedestrian of a street scene a pose inside their box", async () => {
    const { result } = await service.call("detect_poses", photo("vtest_0132.jpg"), {});
    const poses = result as (Found & { keypoints: { x: number; y: number; score: number }[] })[];
    expect(poses.length).toBeGreaterThanOrEqual(6);
    for (const pose of poses) {
      const sure = pose.keypoints.filter((point) => point.score >= 0.3);
      const within = sure.filter((point) => inside(point.x, point.y, [pose.bbox[0] - 10, pose.bbox[1] - 10, pose.bbox[2] + 10, pose.bbox[3] + 10]));
      expect(within.length).toBe(sure.length);
    }
  });
});

describe("segment_people (CenterNet + Selfie)", () => {
  it("returns an image-sized mask that covers the footballer's body and not the stands", async () => {
    const { result } = await service.call("segment_people", photo("messi5.jpg"), {});
    const mask = result as { width: number; height: number; coverage: number; mask_png_base64: string };
    expect([mask.width, mask.height]).toEqual([548, 342]);
    expect(mask.coverage).toBeGreaterThan(0.08);
    expect(mask.coverage).toBeLessThan(0.4);
    const png = Buffer.from(mask.mask_png_base64, "base64");
    const metadata = await sharp(png).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.channels]).toEqual(["png", 548, 342, 1]);
    const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[y * info.width + x];
    expect(at(240, 170)).toBe(255); // his shirt
    expect(at(20, 20)).toBe(0); // the crowd far behind, top left
    expect(at(500, 60)).toBe(0);
  });

  it("returns an empty mask when there is nobody", async () => {
    const { result } = await service.call("segment_people", photo("fruits.jpg"), {});
    expect((result as { coverage: number }).coverage).toBe(0);
  });
});

describe("read_text (PP-OCRv4)", () => {
  const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

  it("reads the words of a parking sign, line by line, with boxes on the sign", async () => {
    const { result } = await service.call("read_text", photo("scenetext01.jpg"), {});
    const read = result as { text: string; lines: { text: string; score: number; bbox: Box }[] };
    for (const word of ["notice", "double", "parking", "prohibited"]) expect(words(read.text)).toContain(word);
    const notice = read.lines.find((line) => line.text.toLowerCase() === "notice")!;
    expect(inside((notice.bbox[0] + notice.bbox[2]) / 2, (notice.bbox[1] + notice.bbox[3]) / 2, [260, 20, 440, 90])).toBe(true);
    expect(read.text.split("\n")[0]).toBe("NOTICE");
  });

  it("reads a shop sign and a hotel sign", async () => {
    const shop = (await service.call("read_text", photo("scenetext03.jpg"), {})).result as { text: string };
    expect(words(shop.text)).toEqual(expect.arrayContaining(["copy", "centre"]));
    const hotel = (await service.call("read_text", photo("scenetext_segmented_word01.jpg"), {})).result as { text: string };
    expect(words(hotel.text)).toContain("hotel");
  });

  it("reads text written up the side of a box (turned 90 degrees)", async () => {
    const { result } = await service.call("read_text", photo("box.png"), {});
    expect((result as { text: string }).text.toLowerCase()).toContain("product of");
  });

  it("finds no text on a photo of fruit", async () => {
    expect((await service.call("read_text", photo("fruits.jpg"), {})).result).toEqual({ text: "", lines: [] });
  });
});
