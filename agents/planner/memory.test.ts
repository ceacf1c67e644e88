import type { ImagePart, ModelMessage, TextPart } from "ai";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildPlannerMessages,
  DEFAULT_CONTEXT_LIMITS,
  PAST_TURN_FIELD_CHARS,
  type ImageRef,
  type PlannerTurnRecord,
  type PrepareImage,
} from "./memory";
import { truncateMiddle } from "@/lib/foundation/text/truncate-middle";

// Real images, made with sharp, and a real prepareImage that downscales them with sharp.
const pixels = new Map<string, Buffer>();
const colors = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6"];

async function makeImage(fileId: string, label: string, width: number, height: number, color: string): Promise<ImageRef> {
  pixels.set(fileId, await sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer());
  return { fileId, label, width, height };
}

const prepareImage: PrepareImage = async (ref, maxEdge) => {
  const source = pixels.get(ref.fileId);
  if (!source) throw new Error(`no pixels for ${ref.fileId}`);
  const png = await sharp(source).resize({ width: maxEdge, height: maxEdge, fit: "inside", withoutEnlargement: true }).png().toBuffer();
  return { type: "image", image: new Uint8Array(png), mediaType: "image/png" };
};

let uploads: ImageRef[] = [];
let shots: ImageRef[] = [];
let big: ImageRef;

beforeAll(async () => {
  uploads = await Promise.all(colors.slice(0, 6).map((c, i) => makeImage(`up${i}`, `photo${i}.jpg`, 80, 60, c)));
  shots = await Promise.all(colors.map((c, i) => makeImage(`shot${i}`, `overlay ${i}`, 64, 48, c)));
  big = await makeImage("big", "huge.png", 3000, 2000, "#808080");
});

// --- helpers over the produced messages -------------------------------------------------------

const parts = (m: ModelMessage | undefined): (TextPart | ImagePart)[] => {
  if (!m || typeof m.content === "string") return [];
  return m.content as (TextPart | ImagePart)[];
};
const textOf = (m: ModelMessage | undefined): string =>
  typeof m?.content === "string" ? m.content : parts(m).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
const imagesIn = (m: ModelMessage | undefined) => parts(m).filter((p): p is ImagePart => p.type === "image");

/** Labels of attached images, in order: the line just before each image part names it. */
function attachedLabels(m: ModelMessage | undefined): string[] {
  const ps = parts(m);
  return ps.flatMap((p, i) => {
    if (p.type !== "image") return [];
    const before = ps[i - 1];
    const line = before?.type === "text" ? (before.text.split("\n").at(-1) ?? "") : "";
    return [/^\[image "([^"]+)"/.exec(line)?.[1] ?? "?"];
  });
}

function codeTurn(turn: number, over: Partial<PlannerTurnRecord["observation"]> = {}, code = `x${turn} = ${turn}\nprint(x${turn})`): PlannerTurnRecord {
  return {
    turn,
    kind: "code",
    thinking: `step ${turn}`,
    code,
    observation: { text: `output of turn ${turn}`, images: [], viewed: [], ...over },
  };
}

const build = (turns: PlannerTurnRecord[], extra: { uploads?: ImageRef[]; maxTurns?: number; limits?: object } = {}) =>
  buildPlannerMessages(
    { system: "SYSTEM", task: { text: "Count the coins.", uploads: extra.uploads ?? uploads.slice(0, 2) }, turns, maxTurns: extra.maxTurns ?? 10, limits: extra.limits },
    prepareImage,
  );

/** Splits a truncateMiddle result into head, omitted count and tail; null when there is no marker. */
function splitTruncated(s: string): { head: string; omitted: number; tail: string } | null {
  const m = /\n\[\.\.\. (\d+) characters omitted \.\.\.\]\n/.exec(s);
  if (!m) return null;
  return { head: s.slice(0, m.index), omitted: Number(m[1]), tail: s.slice(m.index + m[0].length) };
}

// --- truncateMiddle ---------------------------------------------------------------------------

describe("truncateMiddle", () => {
  it("returns short text unchanged, including text exactly at the cap and empty text", () => {
    expect(truncateMiddle("hello", 10)).toBe("hello");
    expect(truncateMiddle("x".repeat(100), 100)).toBe("x".repeat(100));
    expect(truncateMiddle("", 0)).toBe("");
  });

  it("keeps a head and a longer tail with an exact omitted count, within the cap", () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\n");
    const out = truncateMiddle(text, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    const cut = splitTruncated(out)!;
    expect(cut).not.toBeNull();
    expect(text.startsWith(cut.head)).toBe(true);
    expect(text.endsWith(cut.tail)).toBe(true);
    expect(cut.head.length + cut.omitted + cut.tail.length).toBe(text.length);
    expect(cut.tail.length).toBeGreaterThan(cut.head.length); // the tail is where errors are
    expect(cut.tail).toContain("line 1999");
    // Cuts land on line breaks when one is near.
    expect(cut.tail.startsWith("line ")).toBe(true);
    expect(cut.head.endsWith("\n")).toBe(false);
  });

  it("cuts text without line breaks at about 40/60", () => {
    const text = "a".repeat(5000) + "b".repeat(5000);
    const cut = splitTruncated(truncateMiddle(text, 1000))!;
    const kept = cut.head.length + cut.tail.length;
    expect(cut.head.length / kept).toBeCloseTo(0.4, 1);
    expect(cut.head.length + cut.omitted + cut.tail.length).toBe(text.length);
  });

  it("returns the marker alone when nothing else fits, and rejects a negative cap", () => {
    expect(truncateMiddle("x".repeat(500), 10)).toBe("[... 500 characters omitted ...]");
    expect(truncateMiddle("abc", 0)).toBe("[... 3 characters omitted ...]");
    expect(() => truncateMiddle("abc", -1)).toThrow(RangeError);
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(1000); // 2000 UTF-16 units, no line breaks
    for (const cap of [100, 101, 257, 500]) {
      const cut = splitTruncated(truncateMiddle(text, cap))!;
      expect(cut.head.length % 2).toBe(0);
      expect(cut.tail.length % 2).toBe(0);
      expect(cut.head.length + cut.omitted + cut.tail.length).toBe(text.length);
    }
  });
});

// --- buildPlannerMessages ---------------------------------------------------------------------

describe("buildPlannerMessages", () => {
  it("attaches the uploads on the first turn, at most K, and stubs the rest", async () => {
    const { system, messages, stats } = await build([], { uploads });
    expect(system).toBe("SYSTEM");
    expect(messages).toHaveLength(1);
    const first = messages[0]!;
    expect(first.role).toBe("user");
    expect(attachedLabels(first)).toEqual(["photo0.jpg", "photo1.jpg", "photo2.jpg", "photo3.jpg"]);
    const text = textOf(first);
    expect(text).toContain("Count the coins.");
    expect(text).toContain("Uploaded images (6):");
    expect(text).toContain("Turn 1 of 10.");
    expect(text).toContain('[image "photo4.jpg" 80×60 — not attached');
    expect(text).toContain('[image "photo5.jpg" 80×60 — not attached');
    expect(text).toContain("[2 of 6 uploads left out");
    expect(text.endsWith("You have 10 turns left.")).toBe(true);
    expect(stats).toMatchObject({ images: 4, imageStubs: 2, truncatedObservations: 0 });
  });

  it("stubs the uploads after turn 1 unless the newest turn viewed one again", async () => {
    const plain = await build([codeTurn(1), codeTurn(2)]);
    expect(imagesIn(plain.messages[0])).toHaveLength(0);
    expect(textOf(plain.messages[0])).toContain('[image "photo0.jpg" 80×60 — not attached');
    expect(plain.stats.images).toBe(0);

    const reviewed = await build([codeTurn(1), codeTurn(2, { viewed: ["up1"] })]);
    expect(imagesIn(reviewed.messages[0])).toHaveLength(0); // message 1 never changes after turn 1
    expect(reviewed.messages[0]).toEqual(plain.messages[0]);
    expect(attachedLabels(reviewed.messages.at(-1))).toEqual(["photo1.jpg"]);
    expect(textOf(reviewed.messages.at(-1))).toContain('[image "photo1.jpg" 80×60 — you viewed it]');

    // A view in an older turn does not keep the upload attached.
    const older = await build([codeTurn(1, { viewed: ["up1"] }), codeTurn(2)]);
    expect(older.stats.images).toBe(0);
  });

  it("attaches only the newest turn's images, viewed first, capped at K with a note", async () => {
    const turns = [
      codeTurn(1, { images: [shots[0]!] }),
      codeTurn(2, { images: [shots[1]!, shots[2]!] }),
      codeTurn(3, { images: shots.slice(3, 8), viewed: ["shot6", "shot4"] }),
    ];
    const { messages, stats } = await build(turns);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant", "user"]);
    for (const m of messages.slice(0, -1)) expect(imagesIn(m)).toHaveLength(0);

    const newest = messages.at(-1)!;
    expect(attachedLabels(newest)).toEqual(["overlay 6", "overlay 4", "overlay 3", "overlay 5"]);
    const text = textOf(newest);
    expect(text).toContain('[image "overlay 7" 64×48 — not attached');
    expect(text).toContain("[1 of 5 images from this turn left out: at most 4 images are attached per request]");
    expect(textOf(messages[2])).toContain('[image "overlay 0" 64×48 — not attached');
    expect(textOf(messages[4])).toContain('[image "overlay 2" 64×48 — not attached');
    // 2 uploads + 3 older images + 1 left out.
    expect(stats).toMatchObject({ images: 4, imageStubs: 6 });

    // The attached bytes are the right pictures: the first one is overlay 6's colour.
    const first = imagesIn(newest)[0]!;
    const { data } = await sharp(first.image as Uint8Array).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0x46, 0xf0, 0xf0]);
  });

  it("honours a smaller K, and K = 0 attaches nothing", async () => {
    const turn = codeTurn(1, { images: shots.slice(0, 3) });
    expect((await build([turn], { limits: { maxImagesPerTurn: 2 } })).stats.images).toBe(2);
    const none = await build([turn], { limits: { maxImagesPerTurn: 0 } });
    expect(none.stats).toMatchObject({ images: 0, imageStubs: 2 + 3 });
    expect(textOf(none.messages.at(-1))).toContain("[3 of 3 images from this turn left out");
  });

  it("truncates older observations, keeps the newest whole under its cap, and counts right", async () => {
    const long = Array.from({ length: 1500 }, (_, i) => `row ${i}: ${"v".repeat(20)}`).join("\n");
    const turns = [codeTurn(1, { text: long }), codeTurn(2, { text: long }), codeTurn(3, { text: long.slice(0, 15_000) })];
    const { messages, stats } = await build(turns);
    expect(long.length).toBeGreaterThan(DEFAULT_CONTEXT_LIMITS.lastObservationChars);
    expect(stats.truncatedObservations).toBe(2);

    for (const index of [2, 4]) {
      const body = textOf(messages[index]).replace(/^Observation \(turn \d+\):\n/, "");
      const cut = splitTruncated(body)!;
      expect(cut.head.length + cut.tail.length + 30).toBeLessThanOrEqual(DEFAULT_CONTEXT_LIMITS.olderObservationChars);
      expect(long.startsWith(cut.head)).toBe(true);
      expect(cut.head.length + cut.omitted + long.slice(cut.head.length + cut.omitted).length).toBe(long.length);
      expect(body).toContain(long.slice(cut.head.length + cut.omitted));
    }
    const newest = textOf(messages[6]);
    expect(newest.startsWith(`Observation (turn 3):\n${long.slice(0, 15_000)}\n`)).toBe(true);
    expect(newest).not.toContain("characters omitted");

    // Over the cap, the newest keeps as much as fits.
    const over = await build([codeTurn(1, { text: long })]);
    const body = textOf(over.messages[2]).replace(/^Observation \(turn 1\):\n/, "").split("\n\nTurn 2 of 10.")[0]!;
    expect(body.length).toBeLessThanOrEqual(DEFAULT_CONTEXT_LIMITS.lastObservationChars);
    expect(body.length).toBeGreaterThan(DEFAULT_CONTEXT_LIMITS.lastObservationChars - 400);
    expect(over.stats.truncatedObservations).toBe(1);
  });

  it("renders code and questions as the tool calls were made; older code is capped", async () => {
    const longCode = Array.from({ length: 400 }, (_, i) => `v${i} = ${i}  # some comment`).join("\n");
    const ask: PlannerTurnRecord = {
      turn: 2,
      kind: "ask",
      thinking: "two kinds of coins",
      question: "Count the copper coins too?",
      options: ["yes", "no"],
      observation: { text: "The person answered: yes", images: [], viewed: [] },
    };
    const { messages } = await build([codeTurn(1, {}, longCode), ask, codeTurn(3, {}, longCode)]);
    const older = messages[1]!.content as string;
    expect(older.startsWith("<thinking>step 1</thinking>\n<execute_python>\nv0 = 0")).toBe(true);
    expect(older.endsWith("\n</execute_python>")).toBe(true);
    expect(older).toContain("characters omitted");
    expect(older.length).toBeLessThanOrEqual(PAST_TURN_FIELD_CHARS + 100);
    expect(messages[3]!.content).toBe("<thinking>two kinds of coins</thinking>\n<ask_user>\nCount the copper coins too?\nOptions:\n- yes\n- no\n</ask_user>");
    expect(textOf(messages[4])).toContain("Observation (turn 2):\nThe person answered: yes");
    expect(messages[5]!.content).toBe(`<thinking>step 3</thinking>\n<execute_python>\n${longCode}\n</execute_python>`);
  });

  it("downscales images so the long edge is at most 1568 and says so", async () => {
    const { messages } = await build([], { uploads: [big] });
    const [image] = imagesIn(messages[0]);
    const meta = await sharp(image!.image as Uint8Array).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1568);
    expect([meta.width, meta.height]).toEqual([1568, 1045]);
    expect(textOf(messages[0])).toContain('[image "huge.png" 3000×2000 — uploaded, shown at 1568×1045; pixel coordinates in code refer to 3000×2000]');
  });

  it("ends the last user message with the turns left, and asks to finalize on the last one", async () => {
    const three = await build([codeTurn(1), codeTurn(2), codeTurn(3)]);
    expect(textOf(three.messages.at(-1)).endsWith("Turn 4 of 10. You have 7 turns left.")).toBe(true);
    expect(textOf(three.messages[2])).not.toContain("turns left");

    const last = await build([codeTurn(1), codeTurn(2)], { maxTurns: 3 });
    expect(textOf(last.messages.at(-1))).toMatch(/Turn 3 of 3\. You have 1 turn left\. This is your last turn: call finalize_plan/);

    const none = await build([codeTurn(1), codeTurn(2)], { maxTurns: 2 });
    expect(textOf(none.messages.at(-1)).endsWith("You have 0 turns left.")).toBe(true);
  });

  it("is deterministic and keeps the history before the previous turn byte-identical", async () => {
    const turns = [codeTurn(1, { images: [shots[0]!] }), codeTurn(2, { images: [shots[1]!], viewed: ["shot1"] }), codeTurn(3, { images: [shots[2]!] })];
    const a = await build(turns, { uploads });
    const b = await build(turns, { uploads });
    expect(a).toEqual(b);
    // One turn later, message 1 and turns 1–2 are unchanged (prefix caching).
    const next = await build([...turns, codeTurn(4)], { uploads });
    expect(next.messages.slice(0, 5)).toEqual(a.messages.slice(0, 5));
  });

  it("rejects invalid limits", async () => {
    await expect(build([], { limits: { maxImagesPerTurn: -1 } })).rejects.toThrow(RangeError);
    await expect(build([], { limits: { lastObservationChars: 1.5 } })).rejects.toThrow(RangeError);
  });
});

describe("notices", () => {
  it("a turn's notice is said with its observation, before the output", async () => {
    const notice = "Only your first call (execute_python) was used; the other 1 (finalize_plan) was ignored. Make one call per reply.";
    const { messages } = await build([{ ...codeTurn(1), notice }, codeTurn(2)]);
    const firstObservation = textOf(messages[2]);
    expect(firstObservation).toMatch(new RegExp(`^Observation \\(turn 1\\):\\n\\[${notice.replace(/[().]/g, "\\$&")}\\]\\noutput of turn 1`));
    expect(textOf(messages[4])).not.toContain("was ignored");
  });
});
