import type { ToolCatalogueEntry } from "@/lib/foundation/protocol/tool-catalogue";

/** The whole catalogue section of a system prompt stays within this many characters. */
export const CATALOGUE_BUDGET_CHARS = 6_000;

const GUIDE = `Vision tools (already imported in the notebook; each takes an image path, a numpy array or a PIL image; help(name) shows the full docs):
- To find or count a named kind of object ("the screws", "faces", "coins"), call get_tool_for_task(task, images): it tries the likely tools on the images, picks the best (the person may review it) and tells you which tool and threshold to use.
- search_tools(task) lists tool names for a task without running them.
- Objects by class (cars, dogs, cups), body poses and person masks need the neural tools (detect_objects, detect_poses, segment_people): they run on the Argus server and count against the cell's calls like vqa. detect_people, detect_faces and read_text use the server's neural models by default too (read_text rereads pages and near-misses with Tesseract); method="classical" runs HOG, Haar or Tesseract in the kernel.
- For questions a detector can't answer (what, why, which, reading a scene), use vqa(prompt, images) or describe(image).
- Detections are [{"label", "score", "bbox": [x1, y1, x2, y2]}], ready for overlay_bounding_boxes; draw them and view_image the overlay before trusting a count.`;

function line(tool: ToolCatalogueEntry, whenChars: number): string {
  const when = whenChars > 0 && tool.when ? ` Use for: ${tool.when.length > whenChars ? `${tool.when.slice(0, whenChars - 1).trimEnd()}…` : tool.when}.` : "";
  return `- ${tool.signature} — ${tool.summary}${when}`;
}

/**
 * The catalogue as a section of the planner's (and coder's) system prompt:
 * when to reach for get_tool_for_task, vqa and describe, then one line per
 * tool. Every tool keeps its name, signature and summary; "use for" notes are
 * shortened, then dropped, to stay within the budget. Pure.
 */
export function renderToolCatalogue(tools: readonly ToolCatalogueEntry[], budget = CATALOGUE_BUDGET_CHARS): string {
  if (tools.length === 0) return "";
  for (const whenChars of [160, 120, 90, 60, 40, 0]) {
    const text = `${GUIDE}\n${tools.map((t) => line(t, whenChars)).join("\n")}`;
    if (text.length <= budget) return text;
  }
  // Past the budget even without notes: keep names and signatures (help() has the rest).
  return `${GUIDE}\n${tools.map((t) => `- ${t.signature}`).join("\n")}`.slice(0, budget);
}
