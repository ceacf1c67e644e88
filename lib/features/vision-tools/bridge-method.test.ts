/**
 * The kernel's vision_tool method against the real engine (one worker, no waiting room): the
 * image is read from the calling kernel's workspace, refusals come back as the HTTP answer would,
 * and a full queue is waited out on the server instead of costing the cell more calls.
 */
import { copyFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWorkspaceFile } from "@/lib/engines/files/workspace-fs";
import type { BridgeCallContext } from "@/lib/engines/kernels/bridge";
import { BridgeMeter } from "@/lib/engines/kernels/bridge-meter";
import { createVisionService, type VisionService } from "@/lib/engines/vision/service";
import { tempDir } from "@/tests/helpers/temp-dir";
import { visionBridgeMethods, type BridgeToolAnswer } from "./bridge-method";

const scratch = tempDir("argus-vision-bridge-");
let vision: VisionService;

beforeAll(() => {
  vision = createVisionService({ workers: 1, queueLimit: 0 });
  copyFileSync(path.join(process.cwd(), "python/tests/photos/messi5.jpg"), path.join(scratch.dir, "photo.jpg"));
  symlinkSync("/etc/hostname", path.join(scratch.dir, "link.png"));
});
afterAll(async () => {
  await vision?.close();
  scratch.cleanup();
});

function context(): BridgeCallContext {
  const meter = new BridgeMeter();
  return {
    workspace: scratch.dir,
    readFile: (relative, maxBytes) => readWorkspaceFile(scratch.dir, relative, { maxBytes }),
    signal: new AbortController().signal,
    charge: (usage) => meter.charge(usage),
    holdClock: (work) => work,
    meter,
  };
}

const call = (params: Record<string, unknown>) => visionBridgeMethods(vision, 50 * 1024 * 1024).vision_tool!(params, context()) as Promise<BridgeToolAnswer>;

describe("vision_tool over the bridge", () => {
  it("answers the tool's JSON with status 200, as POST /api/tools/:name does", async () => {
    const answer = await call({ name: "detect_people", image: "photo.jpg", params: { box_threshold: 0.3 } });
    expect(answer.status).toBe(200);
    const body = answer.body as { result: { label: string; bbox: number[] }[]; seconds: number };
    expect(body.result.length).toBeGreaterThan(0);
    expect(body.result.every((p) => p.label === "person" && p.bbox.length === 4)).toBe(true);
  });

  it("gives refusals the HTTP status and error body", async () => {
    const unknown = await call({ name: "detect_unicorns", image: "photo.jpg" });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "not_found:tool" } } });
    const bad = await call({ name: "detect_objects", image: "photo.jpg", params: { box_threshold: 3 } });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: "bad_request:tool", field: "params.box_threshold" } } });
  });

  it("never follows a link out of the workspace", async () => {
    await expect(call({ name: "detect_people", image: "link.png" })).rejects.toThrow();
    await expect(call({ name: "detect_people", image: "../../etc/hostname" })).rejects.toThrow();
  });

  it("waits out a full queue: calls at once all succeed where direct calls get busy", async () => {
    const image = await readWorkspaceFile(scratch.dir, "photo.jpg", { maxBytes: 10_000_000 });
    const direct = await Promise.allSettled(Array.from({ length: 3 }, () => vision.call("detect_people", image, {})));
    expect(direct.some((d) => d.status === "rejected" && (d.reason as { code?: string }).code === "busy")).toBe(true);
    const answers = await Promise.all(Array.from({ length: 3 }, () => call({ name: "detect_people", image: "photo.jpg" })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  });
});
