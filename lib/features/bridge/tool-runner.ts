import { z } from "zod";

export const RESULTS_MARKER = "ARGUS_TOOL_RESULTS ";

const DetectionSchema = z.object({
  label: z.string(),
  score: z.number(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
});

export const CandidateResultSchema = z.object({
  count: z.number().int().min(0),
  detections: z.array(DetectionSchema),
  summary: z.string().optional(),
  error: z.string().optional(),
  seconds: z.number().optional(),
});
export type CandidateResult = z.infer<typeof CandidateResultSchema>;

/** What the kernel package's try_tools reports for one tool (see python/argus/tools/trial.py). */
const TriedSchema = z.object({
  error: z.string().optional(),
  skipped: z.string().optional(),
  runs: z
    .array(
      z.object({
        error: z.string().optional(),
        seconds: z.number().optional(),
        count: z.number().int().min(0).nullable().optional(),
        output: z.unknown().optional(),
        boxes: z.array(DetectionSchema).optional(),
      }),
    )
    .optional(),
});
export const TryToolsReportSchema = z.record(z.string(), TriedSchema);

/** One tool's try_tools entry as the review card and the judge read it. */
export function candidateResult(tried: z.infer<typeof TriedSchema> | undefined): CandidateResult {
  const none = { count: 0, detections: [] };
  if (!tried) return { ...none, error: "no result" };
  if (tried.error) return { ...none, error: tried.error.slice(0, 200) };
  if (tried.skipped) return { ...none, error: tried.skipped };
  const run = tried.runs?.[0];
  if (!run) return { ...none, error: "no result" };
  if (run.error) return { ...none, error: run.error.slice(0, 200), ...(run.seconds !== undefined ? { seconds: run.seconds } : {}) };
  const detections = run.boxes ?? [];
  return {
    count: run.count ?? detections.length,
    detections,
    ...(detections.length ? {} : { summary: JSON.stringify(run.output ?? null).slice(0, 300) }),
    ...(run.seconds !== undefined ? { seconds: run.seconds } : {}),
  };
}

/**
 * The cell, run in an isolated kernel, that tries the candidates on one image
 * with the kernel package's own try_tools (each tool under its own time limit,
 * a failing one reported, not fatal) and prints its report as one JSON line.
 * Every value goes in as a JSON literal, never spliced into code.
 */
export function buildCandidateRunner(candidates: string[], imagePath: string, threshold: number, perToolSeconds: number): string {
  if (!/^[\w./-]+$/.test(imagePath) || imagePath.includes("..")) throw new Error(`not a workspace image path: ${imagePath}`);
  const args = JSON.stringify({ candidates, image: imagePath, threshold, limit: perToolSeconds });
  return [
    "import json",
    "from argus.tools import try_tools",
    `_args = json.loads(${JSON.stringify(args)})`,
    `print(${JSON.stringify(RESULTS_MARKER)} + json.dumps(try_tools(_args["candidates"], [_args["image"]], box_threshold=_args["threshold"], max_items=100, time_limit=_args["limit"])))`,
  ].join("\n");
}
