"use client";

import { useState } from "react";
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
 * text, and a screen-reader list repeats them.
 */
export function DetectionOverlay({ image, width, height, detections, alt }: DetectionOverlayProps) {
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const w = width ?? natural?.w ?? null;
  const h = height ?? natural?.h ?? null;
  return (
    <div className="relative inline-block max-w-full align-top">
      <a href={image} target="_blank" rel="noopener noreferrer" aria-label={`${alt} (open full size)`} className="focus-ring block rounded-md">
        <img
          src={image}
          alt={alt}
          onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          className="block h-auto max-h-[28rem] max-w-full rounded-md border"
        />
      </a>
      {w !== null && h !== null && w > 0 && h > 0 && (
        <div aria-hidden="true" className="pointer-events-none absolute inset-0">
          {detections.map((d, i) => {
            const box = boxPercent(d.bbox, w, h);
            return (
              <div
                key={i}
                className="absolute border-2 border-yellow-300 shadow-[0_0_0_1px_rgba(0,0,0,0.7)]"
                style={{ left: `${box.left}%`, top: `${box.top}%`, width: `${box.width}%`, height: `${box.height}%` }}
              >
                <span className="absolute top-0 left-0 bg-black/75 px-1 font-mono text-[10px] leading-tight whitespace-nowrap text-yellow-200">
                  {d.label ? `${d.label} ` : ""}
                  {d.score.toFixed(2)}
                </span>
              </div>
            );
          })}
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
