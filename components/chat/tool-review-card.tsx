"use client";

import { useId, useMemo, useState } from "react";
import { parseToolReviewAnswer, visibleDetections, type ToolCandidate, type ToolReview } from "@/lib/client/message-parts";
import { CandidateTabs } from "./candidate-tabs";
import { DetectionOverlay } from "./detection-overlay";

/** The original app's default; below most tools' own cut-off, so every box starts visible. */
const DEFAULT_THRESHOLD = 0.05;

function startingThreshold(c: ToolCandidate | undefined): number {
  const t = c?.args.box_threshold;
  return typeof t === "number" && t >= 0 && t <= 1 ? t : DEFAULT_THRESHOLD;
}

export interface ToolReviewCardProps {
  review: ToolReview;
  /** True once answered, or when this review is not the one the run waits on. */
  disabled: boolean;
  /** The answer already given, if any: the card reopens on that tool and threshold. */
  answer: string | null;
  /** Receives `JSON.stringify({function_name, box_threshold})`. */
  onChoose(text: string): void;
}

/**
 * The human-in-the-loop tool picker: each candidate tool's detections over
 * the image, a confidence slider that hides weaker boxes live, and a button
 * that answers with the chosen tool and threshold. Tabs and slider stay usable
 * after answering, for looking back; only the answer button is disabled.
 */
export function ToolReviewCard({ review, disabled, answer, onChoose }: ToolReviewCardProps) {
  const previous = useMemo(() => (answer ? parseToolReviewAnswer(answer) : null), [answer]);
  const [selected, setSelected] = useState(() => {
    const i = previous ? review.candidates.findIndex((c) => c.functionName === previous.functionName) : -1;
    return i === -1 ? 0 : i;
  });
  const [threshold, setThreshold] = useState(() => previous?.boxThreshold ?? startingThreshold(review.candidates[0]));
  const idBase = useId();
  const sliderId = `${idBase}-threshold`;
  const panelId = `${idBase}-panel`;

  const candidate = review.candidates[selected] ?? review.candidates[0]!;
  const shown = visibleDetections(candidate.detections, threshold);
  const tabs = review.candidates.map((c) => ({ name: c.functionName, count: c.detections.length }));

  return (
    <div data-testid="tool-review-card" className="mt-3">
      {tabs.length > 1 && <CandidateTabs tabs={tabs} selected={selected} onSelect={setSelected} panelId={panelId} idBase={idBase} />}
      <div id={panelId} role={tabs.length > 1 ? "tabpanel" : undefined} aria-labelledby={tabs.length > 1 ? `${idBase}-tab-${selected}` : undefined} className="pt-3">
        <p className="mb-2 text-sm">
          Tool: <code className="font-mono">{candidate.functionName}</code>
        </p>
        <DetectionOverlay
          image={review.image}
          width={review.width}
          height={review.height}
          detections={shown}
          alt={`Detections of ${candidate.functionName}`}
        />
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <label htmlFor={sliderId} className="text-sm">
            Confidence threshold
          </label>
          <input
            id={sliderId}
            type="range"
            min={0}
            max={1}
            step={0.01}
            value={threshold}
            onChange={(e) => setThreshold(Number(e.target.value))}
            // The count rides along, so a screen reader hears the effect of each step.
            aria-valuetext={`${threshold.toFixed(2)}, showing ${shown.length} of ${candidate.detections.length}`}
            className="w-48 accent-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
          />
          <output htmlFor={sliderId} className="w-10 font-mono text-sm tabular-nums">
            {threshold.toFixed(2)}
          </output>
          <p data-testid="box-count" className="text-sm text-zinc-600 dark:text-zinc-400">
            Showing {shown.length} of {candidate.detections.length} {candidate.detections.length === 1 ? "box" : "boxes"}
          </p>
        </div>
        <button
          type="button"
          disabled={disabled}
          onClick={() => onChoose(JSON.stringify({ function_name: candidate.functionName, box_threshold: Number(threshold.toFixed(2)) }))}
          className="mt-3 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Use this tool
        </button>
      </div>
    </div>
  );
}
