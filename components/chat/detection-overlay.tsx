"use client";

import { useState } from "react";
import { labelsThatFit } from "@/lib/client/label-layout";
import { boxPercent, type Detection } from "@/lib/client/message-parts";

export interface DetectionOverlayProps {
  image: string;
  /** The pixel size the boxes refer to; null → the image's natural size once loaded. */
  width: number | null;
  height: number | null;
  detections: readonly Detection[];
  alt: string;
}

/**
 * Boxes drawn over the picture as absolutely positioned elements in
 * percentages of the image, so they track whatever size the image is shown
 * at (no canvas, no resize observer). Each box carries its label and score as
 * text where it does not cover a stronger box's label (label-layout.ts), and a screen-reader
 * list repeats them all.
 */
export function DetectionOverlay({ image, width, height, detections, alt }: DetectionOverlayProps) {
  const [natural, setNatural] = useState<{ w: number; h: number; shownW: number; shownH: number } | null>(null);
  const w = width ?? natural?.w ?? null;
  const h = height ?? natural?.h ?? null;
  const placed = w !== null && h !== null && w > 0 && h > 0 ? detections.map((d) => ({ ...d, box: boxPercent(d.bbox, w, h) })) : [];
  const labelled = labelsThatFit(
    placed.map((p) => ({ left: p.box.left, top: p.box.top, score: p.score, text: `${p.label ? `${p.label} ` : ""}${p.score.toFixed(2)}` })),
    { width: natural?.shownW || w || 1, height: natural?.shownH || h || 1 },
  );
  return (
    <div className="relative inline-block max-w-full align-top">
      <a href={image} target="_blank" rel="noopener noreferrer" aria-label={`${alt} (open full size)`} className="focus-ring block rounded-md">
        <img
          src={image}
          alt={alt}
          onLoad={(e) => {
            const img = e.currentTarget;
            setNatural({ w: img.naturalWidth, h: img.naturalHeight, shownW: img.clientWidth, shownH: img.clientHeight });
          }}
          className="block h-auto max-h-[28rem] max-w-full rounded-md border"
        />
      </a>
      {placed.length > 0 && (
        <div aria-hidden="true" className="pointer-events-none absolute inset-0">
          {placed.map(({ box, label, score }, i) => (
            <div
              key={i}
              data-testid="detection-box"
              className="absolute border-2 border-yellow-300 shadow-[0_0_0_1px_rgba(0,0,0,0.7)]"
              style={{ left: `${box.left}%`, top: `${box.top}%`, width: `${box.width}%`, height: `${box.height}%` }}
            >
              {labelled[i] && (
                <span data-testid="box-label" className="absolute top-0 left-0 z-10 bg-black/75 px-1 font-mono text-[10px] leading-tight whitespace-nowrap text-yellow-200">
                  {label ? `${label} ` : ""}
                  {score.toFixed(2)}
                </span>
              )}
            </div>
          ))}
        </div>
      )}
      <ul className="sr-only">
        {detections.map((d, i) => (
          <li key={i}>
            {d.label || "object"} with confidence {d.score.toFixed(2)} at {d.bbox.map(Math.round).join(", ")}
          </li>
        ))}
      </ul>
    </div>
  );
}
