import { describe, expect, it } from "vitest";
import type { WaitWire } from "@/lib/foundation/protocol/waits";
import { reportWaits, withWaits } from "./kernel-wait";

describe("reportWaits", () => {
  it("tells the beginning, each change and the end of one wait, with how long it lasted", () => {
    let t = 1000;
    const told: WaitWire[] = [];
    const w = reportWaits((wire) => told.push(wire), () => t);
    w.began({ what: "free_kernel", ahead: 2 });
    t += 1500;
    w.began({ what: "notebook_start", ahead: null });
    t += 2000;
    w.end();
    expect(told.map(({ what, ahead, waitedMs, ended }) => ({ what, ahead, waitedMs, ended }))).toEqual([
      { what: "free_kernel", ahead: 2, waitedMs: 0, ended: false },
      { what: "notebook_start", ahead: null, waitedMs: 1500, ended: false },
      { what: "notebook_start", ahead: null, waitedMs: 3500, ended: true },
    ]);
    expect(new Set(told.map((x) => x.id)).size).toBe(1);
  });

  it("says 0 at the beginning even when the clock moves between two readings (a loaded machine)", () => {
    let t = 1000;
    const told: WaitWire[] = [];
    // Every reading is a millisecond later than the last.
    const w = reportWaits((wire) => told.push(wire), () => t++);
    w.began({ what: "notebook_start", ahead: null });
    w.end();
    expect(told.map((x) => x.waitedMs)).toEqual([0, 1]);
  });

  it("tells nothing when the request never waited, and survives a listener that throws", () => {
    const told: WaitWire[] = [];
    reportWaits((wire) => told.push(wire)).end();
    expect(told).toEqual([]);
    const w = reportWaits(() => {
      throw new Error("socket gone");
    });
    expect(() => w.began({ what: "notebook_start", ahead: null })).not.toThrow();
  });
});

describe("withWaits", () => {
  it("ends the wait even when taking the kernel fails, and tells only a session", async () => {
    const told: [string, WaitWire][] = [];
    const tell = (s: string, w: WaitWire) => told.push([s, w]);
    await expect(
      withWaits(tell, "s1", async (began) => {
        began({ what: "notebook_start", ahead: null });
        throw new Error("cap reached");
      }),
    ).rejects.toThrow("cap reached");
    expect(told.map(([s, w]) => [s, w.ended])).toEqual([["s1", false], ["s1", true]]);
    await withWaits(tell, null, async (began) => began({ what: "notebook_start", ahead: null }));
    expect(told.length).toBe(2);
  });
});
