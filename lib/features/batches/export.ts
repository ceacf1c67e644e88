import type { BatchItemView, BatchView } from "@/lib/foundation/protocol/batches";

/**
 * A batch's results as a file a person opens elsewhere. CSV gives each
 * top-level key of object results its own column (`count`, `areas`), so a
 * count-per-image batch opens as a plain table; values that are not scalars
 * are written as JSON in their cell.
 */
export function batchCsv(items: readonly BatchItemView[], fileUrl: (id: string) => string): string {
  const keys = resultKeys(items);
  const header = ["file", "status", ...(keys ? keys.map((k) => `result.${k}`) : ["result"]), "seconds", "error", "overlay"];
  const lines = [header.map(cell).join(",")];
  for (const it of items) {
    const results = keys
      ? keys.map((k) => (isPlainObject(it.result) && k in it.result ? scalar(it.result[k]) : ""))
      : [it.result === null || it.result === undefined ? "" : scalar(it.result)];
    const row = [it.fileName, it.status, ...results, it.seconds === null ? "" : String(Math.round(it.seconds * 1000) / 1000), it.error ?? "", it.overlayFileId ? fileUrl(it.overlayFileId) : ""];
    lines.push(row.map(cell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

export function batchJson(batch: BatchView, items: readonly BatchItemView[], fileUrl: (id: string) => string): string {
  return JSON.stringify(
    {
      batch,
      items: items.map((it) => ({ ...it, overlayUrl: it.overlayFileId ? fileUrl(it.overlayFileId) : null })),
    },
    null,
    2,
  );
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The union of keys when every finished result is an object; null otherwise (one `result` column). */
export function resultKeys(items: readonly BatchItemView[]): string[] | null {
  const results = items.map((i) => i.result).filter((r) => r !== null && r !== undefined);
  if (results.length === 0 || !results.every(isPlainObject)) return null;
  const keys: string[] = [];
  for (const r of results) for (const k of Object.keys(r as object)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/**
 * One CSV cell (RFC 4180 quoting). Text that a spreadsheet would run as a
 * formula (=, +, -, @ and a leading tab or CR) gets a leading apostrophe — a
 * file could be named `=HYPERLINK(…)` — but numbers stay numbers.
 */
export function cell(text: string): string {
  let t = text;
  if (/^[=+\-@\t\r]/.test(t) && !/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}
