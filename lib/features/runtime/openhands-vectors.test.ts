/**
 * OpenHands' own serialization and stuck-detection cases, as data
 * (tests/fixtures/openhands-event-vectors.json, the repo's copy of the shared
 * reference). A missing file is a failure, not a skip, because these cases are
 * the compatibility contract.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fromDict, toDict } from "./serialization";
import { detectStuck } from "./stuck-detector";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const vectorsPath = path.resolve(repoRoot, "tests/fixtures/openhands-event-vectors.json");

interface RoundtripCase {
  name: string;
  input: Record<string, unknown>;
  expected_event_to_dict: Record<string, unknown>;
}

interface StuckCase {
  name: string;
  headless_mode: boolean;
  history: unknown[];
  expected: { stuck: boolean; loop_type?: string; loop_repeat_times?: number; loop_start_idx?: number };
}

interface Vectors {
  serialization_roundtrip: RoundtripCase[];
  stuck_detector: StuckCase[];
}

function loadVectors(): Vectors {
  // Throws (and so fails the suite) when the file is missing or malformed.
  return JSON.parse(readFileSync(vectorsPath, "utf8")) as Vectors;
}

const vectors = loadVectors();

function withoutMessage(d: Record<string, unknown>): Record<string, unknown> {
  const { message: _message, ...rest } = d;
  return rest;
}

describe("openhands vectors file", () => {
  it("is present and has both sections", () => {
    expect(vectors.serialization_roundtrip.length).toBeGreaterThan(0);
    expect(vectors.stuck_detector.length).toBeGreaterThan(0);
  });
});

describe("serialization_roundtrip vectors", () => {
  it.each(vectors.serialization_roundtrip.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const out = toDict(fromDict(c.input));
    expect(withoutMessage(out)).toEqual(withoutMessage(c.expected_event_to_dict));
    expect(Object.keys(out.args as object)).toEqual(Object.keys(c.expected_event_to_dict.args as object));
    // Top-level order too (message included, since we always emit it).
    expect(Object.keys(out)).toEqual(Object.keys(c.expected_event_to_dict));
  });

  it.each(vectors.serialization_roundtrip.map((c) => [c.name, c] as const))("%s is stable on a second pass", (_name, c) => {
    const once = toDict(fromDict(c.input));
    expect(toDict(fromDict(once))).toEqual(once);
  });
});

describe("stuck_detector vectors", () => {
  it.each(vectors.stuck_detector.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const analysis = detectStuck(c.history.map(fromDict), { headless: c.headless_mode });
    const got = analysis
      ? {
          stuck: true,
          loop_type: analysis.loopType,
          loop_repeat_times: analysis.repeatTimes,
          loop_start_idx: analysis.loopStartIdx,
        }
      : { stuck: false };
    expect(got).toEqual(c.expected);
  });
});
