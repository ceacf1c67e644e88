/** Tallies and violations, counted while fuzzing and printed at the end. */

/** Counts of things, printed as a table. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  rows(): [string, number][] {
    return [...this.counts.entries()].sort((a, b) => b[1] - a[1]);
  }
}

export interface Violations {
  /** kind → examples (the first few kept) and count. */
  byKind: Map<string, { count: number; examples: string[] }>;
}

export function violationsOf(): Violations & { add: (kind: string, detail: string) => void; total: () => number; summary: () => string } {
  const byKind = new Map<string, { count: number; examples: string[] }>();
  return {
    byKind,
    add(kind, detail) {
      const v = byKind.get(kind) ?? { count: 0, examples: [] };
      v.count++;
      if (v.examples.length < 4) v.examples.push(detail);
      byKind.set(kind, v);
    },
    total: () => [...byKind.values()].reduce((s, v) => s + v.count, 0),
    summary: () =>
      [...byKind.entries()]
        .sort((a, b) => b[1].count - a[1].count)
        .map(([k, v]) => `${v.count}× ${k}\n    ${v.examples.join("\n    ")}`)
        .join("\n"),
  };
}
