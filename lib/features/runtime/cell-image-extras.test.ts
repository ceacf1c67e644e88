import { describe, expect, it } from "vitest";
import type { ImageRef } from "@/agents/types";
import { cellObservation } from "@/lib/foundation/protocol/event-builders";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";
import { cellImageLabels, liveCellImageExtras, loggedCellImageExtras } from "./cell-image-extras";
import type { CellImage } from "./run-services";
import { fromDict, toDict } from "./serialization";

/** A cell that displayed one picture and passed another to view_image, as storeExecutionImages stored them. */
const images: CellImage[] = [
  { fileId: "f1", url: "/api/files/f1", label: "turn 26: display 1", width: 480, height: 320, viewed: false },
  { fileId: "f2", url: "/api/files/f2", label: 'turn 26: view_image 2 "blobs"', width: 480, height: 320, viewed: true },
];
/** The session's pictures by URL, as a rebuilding instance reads them from the files table (their file names). */
const known = new Map<string, ImageRef>([
  ["/api/files/f1", { fileId: "f1", label: "turn-26-1.png", width: 480, height: 320 }],
  ["/api/files/f2", { fileId: "f2", label: "turn-26-2.png", width: 480, height: 320 }],
]);

function logged(imageLabels?: ReturnType<typeof cellImageLabels>) {
  const input = cellObservation("planner", { code: "show()", output: { ...emptyCellOutput(), images: { shown: 2, viewed: 1 } }, imageUrls: images.map((i) => i.url), imageLabels, failed: false });
  // Through the log's stored form, as another instance reads it.
  const stored = fromDict(JSON.parse(JSON.stringify(toDict(fromDict({ ...input, id: 7, runId: "r", timestamp: "2026-11-28T00:00:00Z" })))));
  if (!("observation" in stored) || stored.observation !== "run_ipython") throw new Error("not a cell observation");
  return stored.extras;
}

describe("a cell's pictures, live and rebuilt from the log", () => {
  it("tells a rebuilt agent what it was told live: each picture's label, and which one the cell viewed", () => {
    const extras = logged(cellImageLabels(images));
    expect(loggedCellImageExtras(extras.image_urls ?? [], extras.image_labels, known)).toEqual(liveCellImageExtras(images));
    expect(liveCellImageExtras(images).viewed).toEqual(["f2"]);
  });

  it("reads a log written before the labels were kept: every picture shown, under its file's name", () => {
    const extras = logged(undefined);
    expect(extras.image_labels).toBeUndefined();
    expect(loggedCellImageExtras(extras.image_urls ?? [], extras.image_labels, known)).toEqual({ images: [...known.values()], viewed: [] });
  });

  it("does not pair labels with pictures when their counts differ, and skips a URL it does not know", () => {
    const one = [{ label: "x", viewed: true }];
    expect(loggedCellImageExtras(["/api/files/f1", "/api/files/f2"], one, known)).toEqual({ images: [...known.values()], viewed: [] });
    expect(loggedCellImageExtras(["/api/files/gone", "/api/files/f2"], cellImageLabels(images), known)).toEqual({
      images: [{ fileId: "f2", label: 'turn 26: view_image 2 "blobs"', width: 480, height: 320 }],
      viewed: ["f2"],
    });
  });
});
