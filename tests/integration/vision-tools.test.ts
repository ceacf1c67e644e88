import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * Issue #27's surfaces with a real server, real kernels, the real vision engine and the scripted
 * model: one neural call gives the same JSON in the planner's notebook, in the coder's test, on
 * the run endpoint (a function kernel), over `POST /api/tools/:name` and from the exported
 * function run by plain /usr/bin/python3 outside any kernel. Then the HTTP errors and who may call.
 * One server for the whole file; its queue holds no waiting call (ARGUS_VISION_QUEUE=0), so a
 * burst meets 429s.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const PARAMS = { labels: ["person"], box_threshold: 0.3 };

let world: AgentWorld;
const scratch = tempDir("argus-vision-tools-");
let a: { id: string; token: string };
let b: { id: string; token: string };
let photo: Buffer;
let notebookResult: unknown;
let coderOutput: string;

beforeAll(async () => {
  // One PNG every way: the kernel re-encodes the same pixels, so every path sees the same image.
  const png = path.join(scratch.dir, "photo.png");
  await run("/usr/bin/python3", ["-c", `from PIL import Image; Image.open(${JSON.stringify(path.join(ROOT, "python/tests/photos/messi5.jpg"))}).convert("RGB").save(${JSON.stringify(png)})`]);
  photo = readFileSync(png);
  world = await startAgentWorld(scenarioPath("vision-tools.json"), { ARGUS_MAX_UPLOAD_MB: "1", ARGUS_VISION_QUEUE: "0", ARGUS_VISION_WORKERS: "1" });
  a = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  b = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  await uploadFile(world, a, photo, "photo.png");
  const watch = await watchSession(world.server.url, a);
  try {
    const posted = await world.call("POST", `/api/sessions/${a.id}/messages`, { token: a.token, body: { role: "user", content: "Where are the people?" } });
    expect((await watch.until(["finished", "error", "stopped"], 240_000, posted.json.runId as string)).agentState).toBe("finished");
    const observation = watch.messages.find((m) => m.role === "observation" && m.content.includes("NEURAL "))!.content;
    notebookResult = JSON.parse(/NEURAL (\[.*\])/.exec(observation)![1]!);
  } finally {
    watch.socket.disconnect();
  }
  const versions = await world.call("GET", `/api/sessions/${a.id}/functions/find_people/versions`, { token: a.token });
  coderOutput = (versions.json.versions as { testOutput: string }[])[0]!.testOutput;
}, 360_000);
afterAll(async () => {
  await world?.close();
  scratch.cleanup();
});

function toolForm(image: Uint8Array, params?: string, name = "photo.png"): FormData {
  const form = new FormData();
  form.set("image", new Blob([image as BlobPart]), name);
  if (params !== undefined) form.set("params", params);
  return form;
}

const callTool = (name: string, form: FormData, token: string | null = a.token, headers: Record<string, string> = {}) =>
  world.call("POST", `/api/tools/${name}`, { token, raw: form, headers });

describe("one neural call, the same JSON every way", () => {
  it("the notebook, the coder's test, the run endpoint, HTTP and the exported function agree", async () => {
    expect(Array.isArray(notebookResult)).toBe(true);
    const people = notebookResult as { label: string; score: number; bbox: number[] }[];
    expect(people.length).toBeGreaterThan(0);
    expect(people.every((p) => p.label === "person" && p.score >= 0.3 && p.bbox.length === 4)).toBe(true);

    expect(JSON.parse(/CODER (\[.*\])/.exec(coderOutput)![1]!)).toEqual(notebookResult);

    const viaHttp = await callTool("detect_objects", toolForm(photo, JSON.stringify(PARAMS)));
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(viaHttp.json.result).toEqual(notebookResult);
    expect(viaHttp.json.seconds).toBeGreaterThan(0);

    const runForm = new FormData();
    runForm.set("file", new Blob([photo as BlobPart]), "photo.png");
    const viaRun = await world.call("POST", `/api/sessions/${a.id}/functions/find_people/run`, { token: a.token, raw: runForm });
    expect(viaRun.status, viaRun.text).toBe(200);
    expect(viaRun.json.result).toEqual(notebookResult);

    // The export, run by plain python3 outside any kernel, with a function token and no PYTHONPATH.
    const token = (await world.call("POST", `/api/sessions/${a.id}/function-tokens`, { token: a.token })).json.token as string;
    // A function token runs functions but never reads their code; the session's own token downloads it.
    const refused = await fetch(`${world.server.url}/api/sessions/${a.id}/functions/find_people/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    const zip = await fetch(`${world.server.url}/api/sessions/${a.id}/functions/find_people/export`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const out = path.join(scratch.dir, "exported");
    mkdirSync(out);
    writeFileSync(path.join(out, "bundle.zip"), Buffer.from(await zip.arrayBuffer()));
    await run("/usr/bin/python3", ["-m", "zipfile", "-e", "bundle.zip", "."], { cwd: out });
    writeFileSync(path.join(out, "photo.png"), photo);
    const exported = await run("/usr/bin/python3", ["find_people.py", "photo.png"], {
      cwd: out,
      env: { PATH: "/usr/bin:/bin", HOME: out, ARGUS_URL: world.server.url, ARGUS_TOKEN: token } as unknown as NodeJS.ProcessEnv,
    });
    expect(JSON.parse(exported.stdout)).toEqual(notebookResult);
    // A fresh function kernel and a python3 importing OpenCV and scikit-image: slow on a busy machine.
  }, 300_000);

  it("lists the tools with their signatures, docs and parameters", async () => {
    const res = await world.call("GET", "/api/tools", { token: null });
    expect(res.status).toBe(200);
    const names = (res.json.tools as { name: string }[]).map((t) => t.name);
    for (const name of ["detect_objects", "detect_people", "detect_faces", "detect_poses", "segment_people", "read_text"]) expect(names).toContain(name);
    const objects = (res.json.tools as { name: string; signature: string; doc: string; params: unknown }[]).find((t) => t.name === "detect_objects")!;
    expect(objects.signature).toMatch(/^detect_objects\(image, labels=None, box_threshold=/);
    expect(objects.doc).toMatch(/When to use:/);
    expect(JSON.stringify(objects.params)).toMatch(/box_threshold/);
  });
});

describe("POST /api/tools/:name refuses bad calls in the usual shape", () => {
  it("404 for an unknown tool, before the image is read", async () => {
    const res = await callTool("detect_unicorns", toolForm(photo));
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found:tool");
  });

  it("400 naming the field for bad params, unreadable params or no image", async () => {
    const threshold = await callTool("detect_objects", toolForm(photo, JSON.stringify({ box_threshold: 7 })));
    expect(threshold.status).toBe(400);
    expect(threshold.json.error).toMatchObject({ code: "bad_request:tool", field: "params.box_threshold" });
    const label = await callTool("detect_objects", toolForm(photo, JSON.stringify({ labels: ["unicorn"] })));
    expect(label.status).toBe(400);
    expect(label.json.error.field).toBe("params.labels");
    expect(label.json.error.message).toMatch(/unicorn/);
    const unreadable = await callTool("detect_objects", toolForm(photo, "{labels:"));
    expect(unreadable.json.error).toMatchObject({ code: "bad_request:tool", field: "params" });
    const form = new FormData();
    form.set("params", "{}");
    const missing = await callTool("detect_objects", form);
    expect(missing.status).toBe(400);
    expect(missing.json.error.field).toBe("image");
  });

  it("415 for bytes that are not an image and for a body that is not a form; 413 past the upload limit", async () => {
    const text = await callTool("detect_objects", toolForm(new TextEncoder().encode("just some text, not a picture"), undefined, "notes.png"));
    expect(text.status).toBe(415);
    const json = await world.call("POST", "/api/tools/detect_objects", { token: a.token, body: { image: "photo.png" } });
    expect(json.status).toBe(415);
    const big = await callTool("detect_objects", toolForm(new Uint8Array(2 * 1024 * 1024).fill(7), undefined, "big.png"));
    expect(big.status).toBe(413);
    expect(big.json.error.code).toMatch(/^payload_too_large:/);
  });

  it("a burst beyond the queue gets 429 with Retry-After, and the server keeps answering", async () => {
    let refused: { status: number; headers: Headers; json: { error: { code: string } } } | undefined;
    // Waits on the condition itself: bursts until one call finds the single worker busy.
    for (let burst = 0; !refused && burst < 20; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${world.server.url}/api/tools/detect_people`, { method: "POST", headers: { authorization: `Bearer ${a.token}` }, body: toolForm(photo) }).then(async (res) => ({ status: res.status, headers: res.headers, json: (await res.json()) as { error: { code: string } } })),
        ),
      );
      expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
      refused = answers.find((r) => r.status === 429);
    }
    expect(refused).toBeDefined();
    expect(refused!.json.error.code).toBe("rate_limited:tool");
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const health = await world.call("GET", "/api/health", { token: null });
    expect(health.json.vision.queue.limit).toBe(0);
    expect(health.json.vision.models.some((m: { loaded: boolean }) => m.loaded)).toBe(true);
  });
});

describe("who may call a tool", () => {
  it("needs a token: none is 401, a wrong one 403", async () => {
    expect((await callTool("detect_people", toolForm(photo), null)).status).toBe(401);
    const wrong = await callTool("detect_people", toolForm(photo), "not-a-token");
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.code).toBe("forbidden:tool");
  });

  it("a function token works, until it is revoked", async () => {
    const made = (await world.call("POST", `/api/sessions/${a.id}/function-tokens`, { token: a.token })).json as { id: string; token: string };
    expect((await callTool("detect_people", toolForm(photo), made.token)).status).toBe(200);
    expect((await callTool("detect_people", toolForm(photo), made.token, { "x-argus-session": a.id })).status).toBe(200);
    await world.call("DELETE", `/api/sessions/${a.id}/function-tokens/${made.id}`, { token: a.token });
    expect((await callTool("detect_people", toolForm(photo), made.token)).status).toBe(403);
  });

  it("another session's token is refused for a session it does not open", async () => {
    const crossed = await callTool("detect_people", toolForm(photo), b.token, { "x-argus-session": a.id });
    expect(crossed.status).toBe(403);
    // Its own session it does open.
    expect((await callTool("detect_people", toolForm(photo), b.token, { "x-argus-session": b.id })).status).toBe(200);
  });
});
