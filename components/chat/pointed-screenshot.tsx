"use client";

import { pointerPercent } from "@/lib/client/browser-screens";
import { isSafeImageUrl } from "@/lib/client/links";
import { cn } from "@/components/ui/cn";

export interface PointedScreenshotProps {
  /** The screenshot's file URL. */
  image: string;
  /** Where the action points, in the viewport's CSS pixels; null draws no marker. */
  pointer: { x: number; y: number } | null;
  /** The screen the screenshot shows, in CSS pixels. */
  viewport: readonly [number, number];
  alt: string;
  /** Classes of the <img> (its size); the marker follows whatever size it is shown at. */
  imageClassName?: string;
  /** Wrap the picture in a link to the full-size file. */
  linked?: boolean;
  /** Load only when scrolled near (long transcripts). */
  lazy?: boolean;
  /** A smaller marker for thumbnails. */
  small?: boolean;
}

/**
 * A browser screenshot with the pointer's position marked: a ring placed in
 * percentages of the viewport, so it lands on the right spot whether the
 * image is at device pixels (HiDPI) or shown smaller. The position is also
 * said in words for screen readers.
 */
export function PointedScreenshot({ image, pointer, viewport, alt, imageClassName, linked = false, lazy = false, small = false }: PointedScreenshotProps) {
  if (!isSafeImageUrl(image)) return null;
  const at = pointerPercent(pointer, viewport);
  const img = <img src={image} alt={alt} loading={lazy ? "lazy" : undefined} className={cn("block h-auto max-w-full rounded-md border", imageClassName)} />;
  return (
    <figure className="relative m-0 inline-block max-w-full align-top">
      {linked ? (
        <a href={image} target="_blank" rel="noopener noreferrer" aria-label={`${alt} (open full size)`} className="focus-ring block rounded-md">
          {img}
        </a>
      ) : (
        img
      )}
      {at && pointer && (
        <>
          <span
            aria-hidden="true"
            data-testid="pointer-marker"
            // Raw colours on purpose, as in detection-overlay: it must stand out on any page, in either theme.
            className={cn(
              "pointer-events-none absolute -translate-x-1/2 -translate-y-1/2 rounded-full border-red-500 bg-red-500/25 shadow-[0_0_0_2px_rgba(255,255,255,0.85)]",
              small ? "size-3 border-[1.5px]" : "size-5 border-2",
            )}
            style={{ left: `${at.left}%`, top: `${at.top}%` }}
          />
          <figcaption className="sr-only">
            Pointer at {Math.round(pointer.x)}, {Math.round(pointer.y)} on a {Math.round(viewport[0])} × {Math.round(viewport[1])} screen.
          </figcaption>
        </>
      )}
    </figure>
  );
}
