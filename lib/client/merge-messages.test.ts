import { describe, expect, it } from "vitest";
import { items, streamed } from "@/tests/helpers/chat-items";
import { hasChatItem, lastSeq, mergeMessages } from "./merge-messages";

const m = (seq: number) => streamed(items.user(`m${seq}`), seq);

describe("mergeMessages", () => {
  it("keeps order and drops duplicates from live and sync deliveries", () => {
    const live = mergeMessages([], [m(1), m(2), m(5)]);
    const synced = mergeMessages(live, [m(3), m(4), m(5), m(6)]);
    expect(synced.map((x) => x.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lastSeq(synced)).toBe(6);
    expect(lastSeq([])).toBe(0);
  });

  it("returns the same array when nothing is new", () => {
    const list = mergeMessages([], [m(1)]);
    expect(mergeMessages(list, [m(1)])).toBe(list);
    expect(mergeMessages(list, [])).toBe(list);
  });
});

describe("hasChatItem", () => {
  it("accepts a message with its typed item and leaves out one without", () => {
    expect(hasChatItem(m(1))).toBe(true);
    expect(hasChatItem({ seq: 2, runId: null, ts: "", role: "user", content: "old instance" })).toBe(false);
    expect(hasChatItem({ seq: 3, item: null })).toBe(false);
    expect(hasChatItem(null)).toBe(false);
  });
});
