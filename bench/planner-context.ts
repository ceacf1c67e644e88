/**
 * Planner context benchmark: what a 10-turn planner run sends to the model, Argus vs the original.
 *
 * The simulated run: two 800×600 uploads; every cell prints 50 KB and displays one new 1024×768
 * image; turns 3 and 7 also pass a crop to view_image. Before each turn t = 1..10 we build the
 * request two ways, in the same process, from the same records:
 *  - Argus: buildPlannerMessages with the default limits;
 *  - baseline: the original's full replay — every past thinking, code and 50 KB observation and
 *    every image so far, plus the uploads, on every turn.
 * It prints characters and images per turn and in total, and checks that the newest observation
 * is always present in full up to its cap. Exits non-zero when Argus sends more than 40% of the
 * baseline's characters or images, or the newest observation is ever incomplete.
 *
 *   npx tsx bench/planner-context.ts
 */
import type { ImagePart, ModelMessage, TextPart } from "ai";
import sharp from "sharp";
import {
  buildPlannerMessages,
  countChars,
  DEFAULT_CONTEXT_LIMITS,
  type ImageRef,
  type PlannerTurnRecord,
  type PrepareImage,
} from "@/agents/planner/memory";
import { fmt, table } from "./lib/stats";

const TURNS = 10;
const OUTPUT_CHARS = 50_000;
const VIEW_TURNS = new Set([3, 7]);
const TARGET = 0.4;

// A stand-in of realistic length; the agent's real prompt is owned elsewhere.
const SYSTEM = "You are the planner. Solve the vision task by running Python in a live notebook. ".repeat(20);
const TASK = "How many coins are on the table, and which one is the largest? Draw the detections.";

// --- the simulated run ------------------------------------------------------------------------

const pixels = new Map<string, Buffer>();

async function makeImage(fileId: string, label: string, width: number, height: number, seed: number): Promise<ImageRef> {
  const background = { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 151) % 256 };
  const mark = await sharp({ create: { width: width >> 2, height: height >> 2, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer();
  const png = await sharp({ create: { width, height, channels: 3, background } })
    .composite([{ input: mark, left: (seed * 37) % (width - (width >> 2)), top: (seed * 23) % (height - (height >> 2)) }])
    .png()
    .toBuffer();
  pixels.set(fileId, png);
  return { fileId, label, width, height };
}

/** 50 KB of cell output whose last line is the result (where a real cell's answer or error is). */
function cellOutput(turn: number): string {
  const result = `\nRESULT turn ${turn}: ${20 + turn} coins`;
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < OUTPUT_CHARS; i++) {
    const line = `turn ${turn} detection ${i}: bbox=[${i % 640}, ${(i * 7) % 480}, ${(i % 640) + 32}, ${((i * 7) % 480) + 32}] score=0.${(i * 7919) % 1000}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n").slice(0, OUTPUT_CHARS - result.length) + result;
}

async function simulateRun(): Promise<{ uploads: ImageRef[]; turns: PlannerTurnRecord[] }> {
  const uploads = [await makeImage("upload-1", "table.jpg", 800, 600, 1), await makeImage("upload-2", "table-close.jpg", 800, 600, 2)];
  const turns: PlannerTurnRecord[] = [];
  for (let t = 1; t <= TURNS; t++) {
    const images = [await makeImage(`overlay-${t}`, `turn ${t}: overlay`, 1024, 768, 10 + t)];
    const viewed: string[] = [];
    if (VIEW_TURNS.has(t)) {
      images.push(await makeImage(`crop-${t}`, `turn ${t}: crop`, 1024, 768, 50 + t));
      viewed.push(`crop-${t}`);
    }
    turns.push({
      turn: t,
      kind: "code",
      thinking: `Turn ${t}: the previous detections missed coins near the edge; try a lower threshold and a Hough pass, then check the overlay.`,
      code: [
        `img = load_image("table.jpg")`,
        `gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)`,
        `circles = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1.2, minDist=${20 + t}, param1=100, param2=${30 - t})`,
        `dets = [{"label": "coin", "score": 1.0, "bbox": [x - r, y - r, x + r, y + r]} for x, y, r in circles[0]]`,
        `for i, d in enumerate(dets): print(f"detection {i}: {d}")`,
        `overlay_${t} = overlay_bounding_boxes(img, dets)`,
        `plt.imshow(overlay_${t}); plt.show()`,
        ...(VIEW_TURNS.has(t) ? [`view_image(overlay_${t}[100:400, 200:600])`] : []),
      ].join("\n"),
      observation: { text: cellOutput(t), images, viewed },
    });
  }
  return { uploads, turns };
}

// --- what each side sends ---------------------------------------------------------------------

const prepared = new Map<string, ReturnType<PrepareImage>>();

/** Real downscale + PNG encode with sharp, cached per image and size so the baseline's re-sends are cheap. */
const prepareImage: PrepareImage = (ref, maxEdge) => {
  const key = `${ref.fileId}@${maxEdge}`;
  let hit = prepared.get(key);
  if (!hit) {
    hit = sharp(pixels.get(ref.fileId)!)
      .resize({ width: maxEdge, height: maxEdge, fit: "inside", withoutEnlargement: true })
      .png()
      .toBuffer()
      .then((png) => ({ type: "image" as const, image: new Uint8Array(png), mediaType: "image/png" }));
    prepared.set(key, hit);
  }
  return hit;
};

/** The original's request: the whole transcript, verbatim, with every image so far. */
async function baselineMessages(uploads: ImageRef[], past: PlannerTurnRecord[]): Promise<ModelMessage[]> {
  const edge = DEFAULT_CONTEXT_LIMITS.maxImageEdge;
  const withImages = async (text: string, refs: ImageRef[]): Promise<(TextPart | ImagePart)[]> => [
    { type: "text", text },
    ...(await Promise.all(refs.map((r) => prepareImage(r, edge)))),
  ];
  const messages: ModelMessage[] = [{ role: "user", content: await withImages(TASK, uploads) }];
  for (const t of past) {
    messages.push({ role: "assistant", content: `<thinking>${t.thinking}</thinking>\n<execute_python>\n${t.code}\n</execute_python>` });
    messages.push({ role: "user", content: await withImages(`Observation (turn ${t.turn}):\n${t.observation.text}\n<count>${TURNS - t.turn}</count>`, t.observation.images) });
  }
  return messages;
}

const imageCount = (messages: ModelMessage[]) =>
  messages.reduce((n, m) => n + (typeof m.content === "string" ? 0 : m.content.filter((p) => p.type === "image").length), 0);

const textOf = (m: ModelMessage | undefined): string =>
  !m ? "" : typeof m.content === "string" ? m.content : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");

/**
 * Is the newest observation in the request in full up to the cap? Parsed independently of the
 * builder: either the whole text follows the header, or a head that starts the text, a marker
 * "[... N characters omitted ...]", and the tail that follows those N characters to the end —
 * together (marker line included) filling the cap to within the line-snapping slack.
 */
function newestComplete(messages: ModelMessage[], turn: PlannerTurnRecord): boolean {
  const cap = DEFAULT_CONTEXT_LIMITS.lastObservationChars;
  const full = turn.observation.text.trimEnd();
  const text = textOf(messages.at(-1));
  const header = `Observation (turn ${turn.turn}):\n`;
  if (!text.startsWith(header)) return false;
  const body = text.slice(header.length);
  if (full.length <= cap) return body.startsWith(full);
  const marker = /\n\[\.\.\. (\d+) characters omitted \.\.\.\]\n/.exec(body);
  if (!marker) return false;
  const head = body.slice(0, marker.index);
  const tail = full.slice(head.length + Number(marker[1]));
  const shown = head.length + marker[0].length + tail.length;
  return full.startsWith(head) && body.slice(marker.index + marker[0].length).startsWith(tail) && tail.length > 0 && shown <= cap && shown > cap - 400;
}

async function main() {
  const { uploads, turns } = await simulateRun();
  const rows: (string | number)[][] = [["turn", "argus chars", "argus imgs", "stubs", "baseline chars", "baseline imgs", "chars %", "imgs %", "build ms", "newest observation complete"]];
  const sum = { argusChars: 0, argusImages: 0, baseChars: 0, baseImages: 0 };
  let allComplete = true;

  for (let t = 1; t <= TURNS; t++) {
    const past = turns.slice(0, t - 1);
    const started = performance.now();
    const argus = await buildPlannerMessages({ system: SYSTEM, task: { text: TASK, uploads }, turns: past, maxTurns: TURNS }, prepareImage);
    const ms = performance.now() - started;
    const base = await baselineMessages(uploads, past);
    const baseChars = SYSTEM.length + countChars(base);
    const baseImages = imageCount(base);
    if (imageCount(argus.messages) !== argus.stats.images) throw new Error("stats.images disagrees with the messages");

    const newest = past.at(-1);
    const complete = newest ? newestComplete(argus.messages, newest) : null;
    if (complete === false) allComplete = false;

    sum.argusChars += argus.stats.chars;
    sum.argusImages += argus.stats.images;
    sum.baseChars += baseChars;
    sum.baseImages += baseImages;
    rows.push([
      t,
      argus.stats.chars,
      argus.stats.images,
      argus.stats.imageStubs,
      baseChars,
      baseImages,
      `${fmt((100 * argus.stats.chars) / baseChars, 1)}%`,
      `${fmt((100 * argus.stats.images) / baseImages, 1)}%`,
      fmt(ms, 1),
      complete === null ? "n/a (no observation yet)" : complete ? "yes" : "no",
    ]);
  }

  const charShare = sum.argusChars / sum.baseChars;
  const imageShare = sum.argusImages / sum.baseImages;
  rows.push([
    "total",
    sum.argusChars,
    sum.argusImages,
    "",
    sum.baseChars,
    sum.baseImages,
    `${fmt(100 * charShare, 1)}%`,
    `${fmt(100 * imageShare, 1)}%`,
    "",
    allComplete ? "yes" : "no",
  ]);

  console.log(`planner context: ${TURNS} turns, ${OUTPUT_CHARS / 1000} KB printed per cell, one 1024×768 image per cell, view_image on turns ${[...VIEW_TURNS].join(" and ")}, 2 uploads (800×600)`);
  console.log(`limits: newest observation ${DEFAULT_CONTEXT_LIMITS.lastObservationChars} chars, older ${DEFAULT_CONTEXT_LIMITS.olderObservationChars}, K=${DEFAULT_CONTEXT_LIMITS.maxImagesPerTurn}, long edge ${DEFAULT_CONTEXT_LIMITS.maxImageEdge}px\n`);
  console.log(table(rows));
  console.log(`\nArgus sends ${fmt(100 * charShare, 1)}% of the baseline's characters and ${fmt(100 * imageShare, 1)}% of its images (target ≤ ${100 * TARGET}% for both).`);

  const failures = [
    charShare > TARGET && `characters ${fmt(100 * charShare, 1)}% > ${100 * TARGET}%`,
    imageShare > TARGET && `images ${fmt(100 * imageShare, 1)}% > ${100 * TARGET}%`,
    !allComplete && "the newest observation was not complete on every turn",
  ].filter((f): f is string => typeof f === "string");
  if (failures.length > 0) {
    console.error(`FAILED: ${failures.join("; ")}`);
    process.exit(1);
  }
  console.log("target met.");
}

await main();
