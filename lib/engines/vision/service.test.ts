/**
 * The vision service with its real models on real photos (python/tests/photos,
 * from Debian's opencv-doc). One service for the file, so each model loads once.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { VisionError } from "./errors";
import { createVisionService, type VisionService } from "./service";

const PHOTOS = path.join(process.cwd(), "python/tests/photos");
const photo = (name: string) => fs.readFileSync(path.join(PHOTOS, name));

let service: VisionService;

beforeAll(() => {
  // One worker and a queue of one: the third concurrent call is refused as busy.
  service = createVisionService({ workers: 1, queueLimit: 1 });
});

afterAll(async () => {
  await service?.close();
});

async function failure(promise: Promise<unknown>): Promise<VisionError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(VisionError);
  return error as VisionError;
}

describe("the catalogue", () => {
  it("lists every tool with its signature, doc and JSON schema of parameters", () => {
    const tools = service.list();
    expect(tools.map((tool) => tool.name)).toEqual([
      "detect_objects",
      "detect_people",
      "detect_faces",
      "detect_poses",
      "segment_people",
      "read_text",
    ]);
    const objects = tools[0]!;
    expect(objects.signature).toMatch(/^detect_objects\(image, labels=None, box_threshold=0\.\d+\)$/);
    expect(objects.doc).toContain("When to use:");
    expect(objects.params).toMatchObject({ type: "object", properties: { box_threshold: { type: "number" } } });
  });

  it("reports nothing loaded before the first call", () => {
    const health = service.health();
    expect(health.state).toBe("idle");
    expect(health.models.every((model) => !model.loaded)).toBe(true);
    expect(health.queue).toEqual({ running: 0, waiting: 0, limit: 1 });
  });
});

describe("refusals before any model runs", () => {
  it("names an unknown tool and lists the real ones", async () => {
    const error = await failure(service.call("detect_unicorns", photo("messi5.jpg"), {}));
    expect(error.code).toBe("unknown_tool");
    expect(error.message).toContain("detect_objects");
  });

  it("names the parameter at fault", async () => {
    const high = await failure(service.call("detect_people", photo("messi5.jpg"), { box_threshold: 2 }));
    expect(high).toMatchObject({ code: "bad_params", field: "box_threshold" });
    const extra = await failure(service.call("detect_people", photo("messi5.jpg"), { min_height: 5 }));
    expect(extra).toMatchObject({ code: "bad_params", field: "min_height" });
    const label = await failure(service.call("detect_objects", photo("messi5.jpg"), { labels: ["unicorn"] }));
    expect(label).toMatchObject({ code: "bad_params", field: "labels" });
    expect(label.message).toContain('"unicorn"');
    expect(label.message).toContain("traffic light");
  });

  it("refuses bytes that are not a PNG, JPEG or WebP image", async () => {
    expect((await failure(service.call("detect_people", Buffer.from("not a picture"), {}))).code).toBe("bad_image");
    expect((await failure(service.call("detect_people", Buffer.alloc(0), {}))).code).toBe("bad_image");
    expect((await failure(service.call("detect_people", "photo.jpg" as unknown as Buffer, {}))).code).toBe("bad_image");
    const truncated = photo("messi5.jpg").subarray(0, 2000);
    expect((await failure(service.call("detect_people", truncated, {}))).code).toBe("bad_image");
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } }).gif().toBuffer();
    expect((await failure(service.call("detect_people", gif, {}))).code).toBe("bad_image");
  });
});

describe("objects and people (CenterNet)", () => {
  it("finds the pedestrians of a street scene, as person boxes inside the image", async () => {
    const { result, seconds } = await service.call("detect_people", photo("vtest_0132.jpg"), {});
    const people = result as { label: string; score: number; bbox: number[] }[];
    expect(seconds).toBeGreaterThan(0);
    expect(people.length).toBeGreaterThanOrEqual(6);
    for (const person of people) {
      expect(person.label).toBe("person");
      const [x1, y1, x2, y2] = person.bbox as [number, number, number, number];
      expect(0 <= x1 && x1 < x2 && x2 <= 768 && 0 <= y1 && y1 < y2 && y2 <= 576).toBe(true);
    }
    const scores = people.map((person) => person.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(service.health().state).toBe("ready");
    expect(service.health().models.find((model) => model.name === "centernet")?.loaded).toBe(true);
  });

  it("filters by class names as people say them", async () => {
    const { result } = await service.call("detect_objects", photo("vtest_0132.jpg"), { labels: ["cars"] });
    const cars = result as { label: string }[];
    expect(cars.length).toBeGreaterThanOrEqual(1);
    expect(new Set(cars.map((car) => car.label))).toEqual(new Set(["car"]));
  });

  it("answers in the pixels of the image given when it was shrunk for the model", async () => {
    const big = await sharp(photo("vtest_0132.jpg")).resize(2304, 1728).jpeg().toBuffer();
    const { result } = await service.call("detect_people", big, {});
    const people = result as { bbox: number[] }[];
    expect(people.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...people.map((person) => person.bbox[2]!))).toBeGreaterThan(1280);
  });
});

describe("the queue", () => {
  it("refuses a call past the queue as busy, and drops a waiting call that is cancelled", async () => {
    const image = photo("vtest_0132.jpg");
    // The call that holds the only worker: poses on ten pedestrians, the longest of these tools,
    // so the next two calls are surely submitted while it runs.
    const first = service.call("detect_poses", image, {});
    await vi.waitFor(() => expect(service.health().queue.running).toBe(1), { timeout: 30_000, interval: 5 });
    const cancel = new AbortController();
    const second = service.call("detect_people", image, {}, { signal: cancel.signal });
    await vi.waitFor(() => expect(service.health().queue.waiting).toBe(1), { timeout: 30_000, interval: 5 });
    const busy = await failure(service.call("detect_people", image, {}));
    expect(busy.code).toBe("busy");
    expect(busy.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    cancel.abort();
    expect((await failure(second)).code).toBe("aborted");
    expect(service.health().queue.waiting).toBe(0);
    expect(Array.isArray((await first).result)).toBe(true);
  });

  it("answers a running call that is cancelled at once, and keeps serving", async () => {
    const cancel = new AbortController();
    const running = service.call("detect_people", photo("vtest_0132.jpg"), {}, { signal: cancel.signal });
    await vi.waitFor(() => expect(service.health().queue.running).toBe(1), { timeout: 30_000, interval: 5 });
    cancel.abort();
    expect((await failure(running)).code).toBe("aborted");
    const { result } = await service.call("detect_people", photo("vtest_0132.jpg"), {});
    expect((result as unknown[]).length).toBeGreaterThan(0);
  });

  it("answers every call still in flight as unavailable when it closes, and refuses new ones", async () => {
    const other = createVisionService({ workers: 1, queueLimit: 4 });
    const image = photo("messi5.jpg");
    const first = other.call("detect_faces", image, {}).then(
      () => "answered",
      (error: VisionError) => error.code,
    );
    await vi.waitFor(() => expect(other.health().queue.running).toBe(1), { timeout: 30_000, interval: 5 });
    const queued = other.call("detect_faces", image, {});
    await vi.waitFor(() => expect(other.health().queue.waiting).toBe(1), { timeout: 30_000, interval: 5 });
    const queuedOutcome = failure(queued);
    await other.close();
    expect((await queuedOutcome).code).toBe("unavailable");
    // The first call was running on the only worker: cut off, unless it had just finished.
    expect(["unavailable", "answered"]).toContain(await first);
    expect((await failure(other.call("detect_faces", image, {}))).code).toBe("unavailable");
    expect(other.health().queue).toEqual({ running: 0, waiting: 0, limit: 4 });
  });
});
