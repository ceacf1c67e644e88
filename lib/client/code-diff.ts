import { diffLines } from "diff";

export interface DiffRow {
  kind: "same" | "added" | "removed";
  text: string;
  /** Line number in the older version (null for an added line). */
  oldLine: number | null;
  /** Line number in the newer version (null for a removed line). */
  newLine: number | null;
}

/** Line-by-line difference between two versions of a function, as rows to render. */
export function codeDiff(before: string, after: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const change of diffLines(before, after)) {
    const lines = change.value.replace(/\n$/, "").split("\n");
    for (const text of lines) {
      if (change.added) rows.push({ kind: "added", text, oldLine: null, newLine: newLine++ });
      else if (change.removed) rows.push({ kind: "removed", text, oldLine: oldLine++, newLine: null });
      else rows.push({ kind: "same", text, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return rows;
}

export function diffCounts(rows: readonly DiffRow[]): { added: number; removed: number } {
  return { added: rows.filter((r) => r.kind === "added").length, removed: rows.filter((r) => r.kind === "removed").length };
}
