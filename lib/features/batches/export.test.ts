import { describe, expect, it } from "vitest";
import type { BatchItemView } from "@/lib/foundation/protocol/batches";
import { batchCsv, batchJson, cell } from "./export";

const item = (over: Partial<BatchItemView>): BatchItemView => ({
  idx: 0, fileName: "a.png", uploadId: null, status: "done", result: null, stdout: null, seconds: 0.5, error: null, overlayFileId: null, finishedAt: "t", ...over,
});
const url = (id: string) => `/api/files/${id}`;

describe("batchCsv", () => {
  it("gives each key of object results a column, and failed rows their reason", () => {
    const csv = batchCsv(
      [
        item({ fileName: "coins-3.png", result: { count: 3, areas: [1, 2, 3] }, overlayFileId: "f1" }),
        item({ idx: 1, fileName: "broken.png", status: "failed", seconds: null, error: "The file is not an image, a video, or it is damaged." }),
        item({ idx: 2, fileName: "b.png", result: { count: 0, label: "none, \"really\"" }, seconds: 1.23456 }),
      ],
      url,
    );
    expect(csv.split("\r\n")).toEqual([
      "file,status,result.count,result.areas,result.label,seconds,error,overlay",
      'coins-3.png,done,3,"[1,2,3]",,0.5,,/api/files/f1',
      "broken.png,failed,,,,,\"The file is not an image, a video, or it is damaged.\",",
      'b.png,done,0,,"none, ""really""",1.235,,',
      "",
    ]);
  });

  it("keeps one result column when results are not all objects", () => {
    const csv = batchCsv([item({ result: 7 }), item({ idx: 1, result: [1, 2] })], url);
    expect(csv.split("\r\n").slice(0, 3)).toEqual(["file,status,result,seconds,error,overlay", "a.png,done,7,0.5,,", 'a.png,done,"[1,2]",0.5,,']);
  });

  it("defuses text a spreadsheet would run as a formula, but not negative numbers", () => {
    expect(cell("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(cell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(cell("-12.5")).toBe("-12.5");
    expect(cell("+cmd")).toBe("'+cmd");
  });
});

describe("batchJson", () => {
  it("holds the batch and every item with its overlay's URL", () => {
    const parsed = JSON.parse(batchJson({ id: "b" } as never, [item({ overlayFileId: "f1", result: { count: 2 } })], url));
    expect(parsed.batch.id).toBe("b");
    expect(parsed.items[0]).toMatchObject({ fileName: "a.png", result: { count: 2 }, overlayUrl: "/api/files/f1" });
  });
});
