/**
 * What the preview pane shows, derived from the session's messages, uploads
 * and notebook. Pure: the components fetch and render, these decide.
 */
import type { UploadView } from "@/lib/foundation/protocol/files";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { CellAgent, ChatItemOf } from "@/lib/foundation/protocol/chat-item";
import { stepNumbers, stepTitle } from "@/lib/foundation/protocol/step-numbers";

/* ---- the coder's deliverable ---- */

export interface FinalCode {
  code: string;
  test: string;
}

/** Removes one surrounding ```python fence, in case a model wrapped its code in one. */
function unfence(text: string): string {
  const m = /^\s*```[\w-]*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return (m ? m[1]! : text).replace(/^\n+|\s+$/g, "");
}

/** A final_code item as the Code tab shows it; null when it holds no code. */
export function readFinalCode(item: ChatItemOf<"final_code">): FinalCode | null {
  const code = unfence(item.code);
  return code ? { code, test: unfence(item.test) } : null;
}

/** The coder's last final code (function and test), or null before there is one. */
export function finalCode(messages: readonly StreamedMessage[]): FinalCode | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const item = messages[i]!.item;
    if (item.type !== "final_code") continue;
    const parsed = readFinalCode(item);
    if (parsed) return parsed;
  }
  return null;
}

/** `count_coins.py` for code whose first function is `count_coins`, else `argus_code.py`. */
export function pyFileName(code: string): string {
  const m = /^def\s+([A-Za-z_]\w*)\s*\(/m.exec(code) ?? /\bdef\s+([A-Za-z_]\w*)\s*\(/.exec(code);
  return m ? `${m[1]}.py` : "argus_code.py";
}


/* ---- pictures ---- */

interface CellImages {
  message: StreamedMessage;
  /** The pictures the cell showed (file URLs). */
  media: readonly string[];
  /** Who ran the cell this observation belongs to. */
  actor: CellAgent | null;
  /** The cell's step as the chat titles it ("Planner · turn 2"), null before any cell. */
  step: string | null;
}

/** Each observation that carries pictures, with the agent whose cell made them. */
function cellImages(messages: readonly StreamedMessage[]): CellImages[] {
  const out: CellImages[] = [];
  let actor: CellImages["actor"] = null;
  let step: string | null = null;
  const numbers = stepNumbers(messages);
  for (const m of messages) {
    if (m.item.type === "cell") {
      actor = m.item.agent;
      step = stepTitle(m.item.agent, numbers.get(m.seq) ?? 1);
    } else if (m.item.type === "cell_output" && m.item.media.length > 0) {
      // Only a cell's pictures: a browser screenshot is a browser_screen, the Browser tab's.
      out.push({ message: m, media: m.item.media, actor, step });
    }
  }
  return out;
}

/** The cell was a test run in an isolated kernel (agent-cards.ts: the coder's), not notebook exploring. */
const testedInIsolation = (actor: CellAgent | null): boolean => agentCard(actor)?.cells === "isolated";

export interface ResultImage {
  url: string;
  caption: string;
}

/**
 * The run's final visualisation: in the latest run whose planner showed
 * pictures, the last picture of the last observation that says it was passed
 * to view_image, else the last picture any planner observation showed.
 */
export function resultImage(messages: readonly StreamedMessage[]): ResultImage | null {
  const planner = cellImages(messages).filter((c) => !testedInIsolation(c.actor));
  const last = planner[planner.length - 1];
  if (!last) return null;
  const run = planner.filter((c) => c.message.runId === last.message.runId);
  // The cell's output counts the pictures its code passed to view_image.
  const viewed = [...run].reverse().find((c) => c.message.item.type === "cell_output" && c.message.item.output.images.viewed > 0);
  const chosen = viewed ?? last;
  const url = chosen.media[chosen.media.length - 1]!;
  const where = chosen.step !== null ? ` (${chosen.step})` : "";
  const caption = viewed
    ? `The last picture the planner looked at with view_image${where}.`
    : `The last picture the planner's code displayed${where}.`;
  return { url, caption };
}

export interface MediaItem {
  url: string;
  name: string;
  width?: number;
  height?: number;
  origin: "upload" | "generated";
  kind: "image" | "video";
  thumbnailUrl?: string;
}

const urlKey = (url: string) => url.split(/[?#]/)[0]!;

/**
 * Everything the Media tab can show: the session's uploads first, then the
 * pictures the agents' cells produced, each once. A generated picture is named
 * after the step that made it, as the chat titles it ("image 2 from Planner · turn 3"), so regions drawn
 * on it can be referred to.
 */
export function sessionImages(uploads: readonly UploadView[], messages: readonly StreamedMessage[]): MediaItem[] {
  const seen = new Set<string>();
  const items: MediaItem[] = [];
  for (const u of uploads) {
    if (seen.has(urlKey(u.url))) continue;
    seen.add(urlKey(u.url));
    items.push({
      url: u.url,
      name: u.name,
      origin: "upload",
      kind: u.kind === "video" ? "video" : "image",
      ...(u.width ? { width: u.width } : {}),
      ...(u.height ? { height: u.height } : {}),
      ...(u.thumbnailUrl ? { thumbnailUrl: u.thumbnailUrl } : {}),
    });
  }
  for (const cell of cellImages(messages)) {
    cell.media.forEach((url, i) => {
      if (seen.has(urlKey(url))) return;
      seen.add(urlKey(url));
      // Named after the step as the chat titles it, so "image 1 from Planner · turn 2" is findable there.
      const from = cell.step ?? "a cell";
      // Every generated file is stored with a thumbnail (lib/engines/files/generated.ts).
      const thumb = /^\/api\/files\/[\w-]+$/.test(url) ? { thumbnailUrl: `${url}?variant=thumb` } : {};
      items.push({ url, name: `image ${i + 1} from ${from}`, origin: "generated", kind: "image", ...thumb });
    });
  }
  return items;
}

/* ---- the notebook ---- */

export type NotebookOutputView =
  | { kind: "stream"; name: "stdout" | "stderr"; text: string }
  | { kind: "image"; src: string; alt: string }
  | { kind: "text"; text: string }
  | { kind: "error"; ename: string; evalue: string; traceback: string };

export type NotebookCellView =
  | { kind: "code"; id: string; executionCount: number | null; source: string; outputs: NotebookOutputView[] }
  | { kind: "markdown"; id: string; source: string };

/** Terminal colour codes, which IPython puts in tracebacks. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
}

/** nbformat stores multi-line strings either whole or as a list of lines. */
function multiline(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.filter((v) => typeof v === "string").join("");
  return "";
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Alt text from the output's text form; view_image writes `<argus image: 640x480 a caption>`. */
function imageAlt(text: string): string {
  const m = /^<argus image: (\d+)x(\d+)\s*(.*)>$/.exec(text.trim());
  if (m) return m[3] ? m[3] : `Image ${m[1]}×${m[2]}`;
  return text.trim() || "Cell output image";
}

function dataOutput(data: Record<string, unknown>): NotebookOutputView | null {
  const text = multiline(data["text/plain"]);
  for (const mime of ["image/png", "image/jpeg", "image/gif", "image/webp"]) {
    const b64 = multiline(data[mime]).replace(/\s+/g, "");
    // Only well-formed base64 goes into the data: URL.
    if (b64 && /^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
      return { kind: "image", src: `data:${mime};base64,${b64}`, alt: imageAlt(text) };
    }
  }
  if (text) return { kind: "text", text };
  const json = data["application/json"];
  if (json !== undefined) return { kind: "text", text: JSON.stringify(json, null, 2) };
  const other = Object.keys(data)[0];
  return other ? { kind: "text", text: `[${other} output]` } : null;
}

function outputOf(o: unknown): NotebookOutputView | null {
  if (!isRecord(o)) return null;
  switch (o.output_type) {
    case "stream":
      return { kind: "stream", name: o.name === "stderr" ? "stderr" : "stdout", text: stripAnsi(multiline(o.text)) };
    case "display_data":
    case "execute_result":
      return isRecord(o.data) ? dataOutput(o.data) : null;
    case "error":
      return {
        kind: "error",
        ename: String(o.ename ?? "Error"),
        evalue: String(o.evalue ?? ""),
        traceback: stripAnsi(Array.isArray(o.traceback) ? o.traceback.map(String).join("\n") : ""),
      };
    default:
      return null;
  }
}

/** An nbformat 4 document → the cells to render; null when it isn't a notebook. */
export function parseNotebook(doc: unknown): NotebookCellView[] | null {
  if (!isRecord(doc) || !Array.isArray(doc.cells)) return null;
  const cells: NotebookCellView[] = [];
  doc.cells.forEach((c, i) => {
    if (!isRecord(c)) return;
    // The download's own setup (lib/engines/kernels/notebook-helpers.ts) is not something the session ran.
    if (isRecord(c.metadata) && isRecord(c.metadata.argus) && c.metadata.argus.helpers === true) return;
    const id = typeof c.id === "string" && c.id ? c.id : `cell-${i}`;
    const source = multiline(c.source);
    if (c.cell_type === "code") {
      const outputs = (Array.isArray(c.outputs) ? c.outputs : []).map(outputOf).filter((o): o is NotebookOutputView => o !== null);
      const count = typeof c.execution_count === "number" ? c.execution_count : null;
      cells.push({ kind: "code", id, executionCount: count, source, outputs });
    } else if (c.cell_type === "markdown" || c.cell_type === "raw") {
      cells.push({ kind: "markdown", id, source });
    }
  });
  return cells;
}
