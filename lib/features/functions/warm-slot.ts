/**
 * Which warm kernel an HTTP call of a function gets (pure; see warm-runners.ts). A slot is one
 * kernel kept for one session's function version; `key` names that version.
 */
export interface WarmSlotView {
  key: string;
  busy: boolean;
  /** When its last call ended (ms): the longest unused is given up first. */
  lastUsedMs: number;
}

export type WarmChoice =
  /** An idle kernel that already ran this version. */
  | { kind: "reuse"; index: number }
  /** A new slot: there is room for one more. */
  | { kind: "open" }
  /** No room: give up the longest-unused idle slot (another version's) and open one in its place. */
  | { kind: "replace"; index: number }
  /** Every slot is busy (or warm kernels are off): a fresh kernel for this call alone. */
  | { kind: "fresh" };

export function chooseWarmSlot(slots: readonly WarmSlotView[], key: string, max: number): WarmChoice {
  if (max <= 0) return { kind: "fresh" };
  const reuse = slots.findIndex((s) => !s.busy && s.key === key);
  if (reuse >= 0) return { kind: "reuse", index: reuse };
  if (slots.length < max) return { kind: "open" };
  let oldest = -1;
  for (let i = 0; i < slots.length; i++) {
    if (!slots[i]!.busy && (oldest < 0 || slots[i]!.lastUsedMs < slots[oldest]!.lastUsedMs)) oldest = i;
  }
  return oldest >= 0 ? { kind: "replace", index: oldest } : { kind: "fresh" };
}
