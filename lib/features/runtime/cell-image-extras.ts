/**
 * What an agent is told about a cell's pictures (their labels, and which the cell passed to
 * view_image), built the same way live and when a run is rebuilt from the log on another instance
 * (run-rebuild.ts). The log keeps each picture's label and whether it was viewed beside its URL
 * (`image_labels` in the cell's observation), so the rebuilt planner's memory is the one it had:
 * before, a viewed picture came back as "displayed by the cell" under its file name, and the
 * planner's next request differed from the one it sent before the move. Pure.
 */
import type { ImageRef, ObservationExtras } from "@/agents/types";
import type { CellImageLabel } from "@/lib/foundation/protocol/observation-extras";
import type { CellImage } from "./run-services";

/** The labels to log beside the cell's `image_urls`, in the same order. */
export function cellImageLabels(images: readonly CellImage[]): CellImageLabel[] {
  return images.map((i) => ({ label: i.label, viewed: i.viewed }));
}

/** Live: the pictures the cell's images were stored as. */
export function liveCellImageExtras(images: readonly CellImage[]): ObservationExtras {
  return {
    images: images.map((i) => ({ fileId: i.fileId, label: i.label, width: i.width, height: i.height })),
    viewed: images.filter((i) => i.viewed).map((i) => i.fileId),
  };
}

/**
 * From the log: `urls` as logged, `labels` beside them (absent in logs written before they were
 * kept: then every picture is "shown", under its file's name), and the session's pictures by URL.
 */
export function loggedCellImageExtras(urls: readonly unknown[], labels: readonly CellImageLabel[] | undefined, known: ReadonlyMap<string, ImageRef>): ObservationExtras {
  const aligned = labels !== undefined && labels.length === urls.length;
  const images: ImageRef[] = [];
  const viewed: string[] = [];
  urls.forEach((url, k) => {
    const ref = typeof url === "string" ? known.get(url) : undefined;
    if (!ref) return;
    const logged = aligned ? labels[k] : undefined;
    images.push(logged ? { ...ref, label: logged.label } : ref);
    if (logged?.viewed) viewed.push(ref.fileId);
  });
  return { images, viewed };
}
