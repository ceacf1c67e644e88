"use client";

import { Check } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { openingChoice, toolReviewAnswer, toolReviewChoice, visibleDetections, type CardAnswer, type ToolReview } from "@/lib/client/message-parts";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent } from "@/components/ui/tabs";
import { CandidateTabs } from "./candidate-tabs";
import { DetectionOverlay } from "./detection-overlay";

export interface ToolReviewCardProps {
  review: ToolReview;
  /** True once answered, or when this review is not the one the run waits on. */
  disabled: boolean;
  /** The answer already given, if any: the card reopens on that tool and threshold (else on the judge's pick). */
  answer: CardAnswer | null;
  /** Receives the pick as typed fields (`choice`: the tool and the threshold). */
  onChoose(answer: CardAnswer): void;
}

/**
 * The human-in-the-loop tool picker: each candidate tool's detections over
 * the image, a confidence slider that hides weaker boxes live, and a button
 * that answers with the chosen tool and threshold. Tabs and slider stay usable
 * after answering, for looking back; only the answer button is disabled.
 */
export function ToolReviewCard({ review, disabled, answer, onChoose }: ToolReviewCardProps) {
  const previous = useMemo(() => toolReviewAnswer(answer), [answer]);
  const opening = useMemo(() => openingChoice(review, previous), [review, previous]);
  const [selected, setSelected] = useState(opening.index);
  const [threshold, setThreshold] = useState(opening.threshold);
  const sliderId = useId();

  const candidate = review.candidates[selected] ?? review.candidates[0]!;
  const shown = visibleDetections(candidate.detections, threshold);
  const tabs = review.candidates.map((c) => ({ name: c.functionName, count: c.detections.length }));

  const panel = (
    <div className="pt-3">
      <p className="mb-2 text-sm">
        Tool: <code className="rounded bg-muted px-1 font-mono">{candidate.functionName}</code>
        {review.suggested?.functionName === candidate.functionName && <span data-testid="judge-pick" className="ml-2 text-muted-foreground">(the judge&apos;s pick)</span>}
      </p>
      <DetectionOverlay image={review.image} width={review.width} height={review.height} detections={shown} alt={`Detections of ${candidate.functionName}`} />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <label htmlFor={sliderId} className="text-sm font-medium">
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
          className="focus-ring w-48 accent-primary"
        />
        <output htmlFor={sliderId} className="w-10 font-mono text-sm tabular-nums">
          {threshold.toFixed(2)}
        </output>
        <p data-testid="box-count" className="text-sm text-muted-foreground">
          Showing {shown.length} of {candidate.detections.length} {candidate.detections.length === 1 ? "box" : "boxes"}
        </p>
      </div>
      <Button
        disabled={disabled}
        onClick={() => onChoose({ text: "", choice: toolReviewChoice(candidate.functionName, threshold) })}
        className="mt-3"
      >
        <Check aria-hidden="true" />
        Use this tool
      </Button>
    </div>
  );

  return (
    <div data-testid="tool-review-card" className="mt-3">
      {tabs.length > 1 ? (
        <Tabs value={String(selected)} onValueChange={(v) => setSelected(Number(v))}>
          <CandidateTabs tabs={tabs} />
          <TabsContent value={String(selected)}>{panel}</TabsContent>
        </Tabs>
      ) : (
        panel
      )}
    </div>
  );
}
