import { describe, expect, it } from "vitest";
import type { UploadView } from "@/lib/foundation/protocol/files";
import type { CellOutput } from "@/lib/foundation/protocol/cell-output";
import type { ChatItem } from "@/lib/foundation/protocol/chat-item";
import { items as i, streamed } from "@/tests/helpers/chat-items";
import {
  finalCode,
  readFinalCode,
  parseNotebook,
  pyFileName,
  resultImage,
  sessionImages,
  stripAnsi,
} from "./preview-data";

let seq = 0;
const msg = (item: ChatItem, runId = "r1") => streamed(item, ++seq, { runId });
const out = (output: Partial<CellOutput>, media: string[] = [], runId = "r1") => msg(i.cellOutput(output, media), runId);
const cell = (agent: "planner" | "coder", code = "print(1)", runId = "r1") => msg(i.cell(agent, "", code), runId);
const displayed = (n: number): Partial<CellOutput> => ({ images: { shown: n, viewed: 0 } });
const viewed = (n: number, v: number): Partial<CellOutput> => ({ images: { shown: n, viewed: v } });

function upload(id: string, name: string, kind: "image" | "video" = "image"): UploadView {
  return {
    id,
    name,
    kind,
    mime: kind === "image" ? "image/png" : "video/mp4",
    size: 10,
    width: 640,
    height: 480,
    durationSec: kind === "video" ? 3 : null,
    url: `/api/files/${id}`,
    thumbnailUrl: `/api/files/${id}?variant=thumb`,
  };
}

describe("finalCode", () => {
  it("takes the coder's last final message", () => {
    const messages = [
      msg(i.finalCode("def a():\n    pass", "a()")),
      msg(i.reply("<final_code>not the coder</final_code>", "planner")),
      msg(i.finalCode("\ndef count_coins(path):\n    return 3\n", "\nprint(count_coins('coins.png'))\n")),
      msg(i.reply("There are 3 coins.", "assistant")),
    ];
    expect(finalCode(messages)).toEqual({
      code: "def count_coins(path):\n    return 3",
      test: "print(count_coins('coins.png'))",
    });
  });

  it("is null before the coder has finished, or when its code is empty", () => {
    expect(finalCode([msg(i.user("how many coins?")), cell("coder")])).toBeNull();
    expect(finalCode([msg(i.finalCode("", ""))])).toBeNull();
  });

  it("keeps tag-like text inside the code and strips a markdown fence", () => {
    expect(readFinalCode({ type: "final_code", code: '```python\ns = "</final_code>"\n```', test: "print(s)" })).toEqual({ code: 's = "</final_code>"', test: "print(s)" });
    expect(readFinalCode({ type: "final_code", code: "x = 1", test: "" })).toEqual({ code: "x = 1", test: "" });
  });
});

describe("pyFileName", () => {
  it("names the file after the first top-level function", () => {
    expect(pyFileName("import cv2\n\ndef count_coins(path):\n    def helper(x):\n        pass")).toBe("count_coins.py");
    expect(pyFileName("class A:\n    def method(self):\n        pass")).toBe("method.py");
    expect(pyFileName("x = 1")).toBe("argus_code.py");
  });
});

describe("resultImage", () => {
  it("prefers the last picture passed to view_image", () => {
    const messages = [
      cell("planner"),
      out(viewed(2, 1), ["/api/files/a", "/api/files/b"]),
      cell("planner"),
      out(displayed(1), ["/api/files/c"]),
    ];
    const r = resultImage(messages);
    expect(r?.url).toBe("/api/files/b");
    expect(r?.caption).toMatch(/view_image \(Planner · turn \d+\)/);
  });

  it("falls back to the last picture the planner displayed", () => {
    const messages = [cell("planner"), out(displayed(1), ["/api/files/a"]), cell("planner"), out(displayed(2), ["/api/files/b", "/api/files/c"])];
    expect(resultImage(messages)?.url).toBe("/api/files/c");
    expect(resultImage(messages)?.caption).toMatch(/displayed/);
  });

  it("ignores the coder's test pictures and text-only observations", () => {
    const messages = [
      cell("planner"),
      out(displayed(1), ["/api/files/plan"]),
      cell("coder"),
      out(viewed(1, 1), ["/api/files/test"]),
      cell("planner"),
      out({ stdout: "3" }),
    ];
    expect(resultImage(messages)?.url).toBe("/api/files/plan");
  });

  it("answers for the latest run, not an older run's viewed picture", () => {
    const messages = [
      cell("planner", "a", "r1"),
      out(viewed(1, 1), ["/api/files/old"], "r1"),
      cell("planner", "b", "r2"),
      out(displayed(1), ["/api/files/new"], "r2"),
    ];
    expect(resultImage(messages)?.url).toBe("/api/files/new");
  });

  it("names the turn as the chat does: each run's planner turns counted from 1, not the seq", () => {
    const messages = [
      msg(i.user("first question", []), "r1"),
      cell("planner", "a", "r1"),
      out(displayed(1), ["/api/files/old"], "r1"),
      msg(i.user("second question", []), "r2"),
      cell("planner", "b", "r2"),
      out({ stdout: "1" }, [], "r2"),
      cell("coder", "t", "r2"),
      out(displayed(1), ["/api/files/test"], "r2"),
      cell("planner", "c", "r2"),
      out(viewed(1, 1), ["/api/files/new"], "r2"),
    ];
    expect(resultImage(messages)?.caption).toBe("The last picture the planner looked at with view_image (Planner · turn 2).");
  });

  it("leaves browser screenshots to the Browser tab (neither result nor media)", () => {
    const screenshot = (url: string) =>
      msg(i.screen("", { title: "" }, [url]));
    const messages = [cell("planner"), out(displayed(1), ["/api/files/plan"]), msg(i.step("click(1, 1)")), screenshot("/api/files/shot")];
    expect(resultImage(messages)?.url).toBe("/api/files/plan");
    expect(resultImage([screenshot("/api/files/only")])).toBeNull();
    expect(sessionImages([], messages).map((i) => i.url)).toEqual(["/api/files/plan"]);
  });

  it("is null without pictures", () => {
    expect(resultImage([])).toBeNull();
    expect(resultImage([msg(i.user("hi", ["/api/files/up"]))])).toBeNull();
  });
});

describe("sessionImages", () => {
  it("lists uploads first, then generated pictures, each once", () => {
    const uploads = [upload("u1", "coins.png"), upload("v1", "clip.mp4", "video")];
    const plan = cell("planner");
    const test = cell("coder");
    const messages = [
      msg(i.user("count", ["/api/files/u1"])),
      plan,
      out(displayed(2), ["/api/files/g1", "/api/files/u1"]),
      out(displayed(1), ["/api/files/g1?x=1"]),
      test,
      out(displayed(1), ["/api/files/g2"]),
    ];
    const items = sessionImages(uploads, messages);
    expect(items.map((i) => [i.url, i.origin, i.kind])).toEqual([
      ["/api/files/u1", "upload", "image"],
      ["/api/files/v1", "upload", "video"],
      ["/api/files/g1", "generated", "image"],
      ["/api/files/g2", "generated", "image"],
    ]);
    expect(items[0]).toMatchObject({ name: "coins.png", width: 640, height: 480, thumbnailUrl: "/api/files/u1?variant=thumb" });
    // Named by the step's number in the chat, not by the transcript's seq.
    expect(items[2]!.name).toBe("image 1 from Planner · turn 1");
    expect(items[3]!.name).toBe("image 1 from Coder · test run");
    expect(items[2]!.width).toBeUndefined();
    expect(items[2]!.thumbnailUrl).toBe("/api/files/g1?variant=thumb");
  });

  it("is empty for an empty session", () => {
    expect(sessionImages([], [])).toEqual([]);
  });
});

describe("parseNotebook", () => {
  const png = "iVBORw0KGgo=";
  const doc = {
    nbformat: 4,
    nbformat_minor: 5,
    cells: [
      {
        cell_type: "code",
        id: "cell-1",
        execution_count: 1,
        source: ["import cv2\n", "print('hi')"],
        outputs: [
          { output_type: "stream", name: "stdout", text: "hi\n" },
          { output_type: "display_data", data: { "image/png": `${png}\n`, "text/plain": "<argus image: 640x480 coins>" }, metadata: {} },
          { output_type: "execute_result", data: { "text/plain": "42" }, metadata: {}, execution_count: 1 },
          { output_type: "error", ename: "NameError", evalue: "x", traceback: ["\u001b[0;31mNameError\u001b[0m", "line 2"] },
          { output_type: "display_data", data: { "image/png": "<script>", "text/plain": "fig" } },
          { output_type: "mystery" },
        ],
      },
      { cell_type: "markdown", id: "reset-1", metadata: {}, source: "*The kernel was restarted here*" },
      { cell_type: "code", source: "x", outputs: [{ output_type: "stream", name: "stderr", text: ["warn", "ing"] }] },
    ],
  };

  it("turns cells and outputs into what the tab renders", () => {
    const cells = parseNotebook(doc)!;
    expect(cells).toHaveLength(3);
    expect(cells[0]).toEqual({
      kind: "code",
      id: "cell-1",
      executionCount: 1,
      source: "import cv2\nprint('hi')",
      outputs: [
        { kind: "stream", name: "stdout", text: "hi\n" },
        { kind: "image", src: `data:image/png;base64,${png}`, alt: "coins" },
        { kind: "text", text: "42" },
        { kind: "error", ename: "NameError", evalue: "x", traceback: "NameError\nline 2" },
        { kind: "text", text: "fig" },
      ],
    });
    expect(cells[1]).toEqual({ kind: "markdown", id: "reset-1", source: "*The kernel was restarted here*" });
    expect(cells[2]).toMatchObject({ id: "cell-2", executionCount: null, outputs: [{ kind: "stream", name: "stderr", text: "warning" }] });
  });

  it("leaves out the cells a download adds to load Argus's helpers", () => {
    const helpers = [
      { cell_type: "markdown", id: "argus-helpers-note", metadata: { argus: { helpers: true } }, source: "Exported from Argus" },
      { cell_type: "code", id: "argus-helpers", metadata: { argus: { helpers: true } }, source: "from argus import *", outputs: [] },
    ];
    const withHelpers = parseNotebook({ ...doc, cells: [...helpers, ...doc.cells] })!;
    expect(withHelpers.map((c) => c.source)).toEqual(parseNotebook(doc)!.map((c) => c.source));
  });

  it("rejects what isn't a notebook", () => {
    expect(parseNotebook(null)).toBeNull();
    expect(parseNotebook({ cells: "no" })).toBeNull();
    expect(parseNotebook({ cells: [] })).toEqual([]);
  });

  it("strips terminal colours", () => {
    expect(stripAnsi("\u001b[1;32mok\u001b[0m")).toBe("ok");
  });
});
