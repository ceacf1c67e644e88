import { describe, expect, it } from "vitest";
import { DraftPacer, type PacerClock } from "./draft-pacer";

/** A clock that moves only when the test says so, running due timers in order. */
function manualClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: PacerClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  };
  return { clock, advance, pendingTimers: () => timers.size };
}

function setup(gap: number | null = 30) {
  const c = manualClock();
  const sent: { value: string; at: number }[] = [];
  const pacer = new DraftPacer<string>((value) => {
    sent.push({ value, at: c.clock.now() });
    return gap;
  }, c.clock);
  return { ...c, sent, pacer };
}

describe("DraftPacer", () => {
  it("sends the first draft at once", () => {
    const { pacer, sent } = setup();
    pacer.push("a");
    expect(sent).toEqual([{ value: "a", at: 0 }]);
  });

  it("coalesces drafts inside the gap into the newest, sent when the gap ends", () => {
    const { pacer, sent, advance } = setup();
    pacer.push("a");
    advance(5);
    pacer.push("ab");
    advance(5);
    pacer.push("abc");
    expect(sent.map((s) => s.value)).toEqual(["a"]);
    advance(19);
    expect(sent.map((s) => s.value)).toEqual(["a"]);
    advance(1);
    expect(sent).toEqual([
      { value: "a", at: 0 },
      { value: "abc", at: 30 },
    ]);
  });

  it("never sends two drafts closer than the gap, however many arrive", () => {
    const { pacer, sent, advance } = setup();
    for (let i = 1; i <= 500; i++) {
      pacer.push(`v${i}`);
      advance(1);
    }
    advance(100);
    const times = sent.map((s) => s.at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(30);
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.at(-1)!.value).toBe("v500");
  });

  it("sends at once again when the last send is more than a gap ago", () => {
    const { pacer, sent, advance } = setup();
    pacer.push("a");
    advance(100);
    pacer.push("b");
    expect(sent).toEqual([
      { value: "a", at: 0 },
      { value: "b", at: 100 },
    ]);
  });

  it("flush sends the held draft now, and nothing is sent twice", () => {
    const { pacer, sent, advance, pendingTimers } = setup();
    pacer.push("a");
    pacer.push("ab");
    pacer.flush();
    expect(sent.map((s) => s.value)).toEqual(["a", "ab"]);
    expect(pendingTimers()).toBe(0);
    advance(100);
    pacer.flush();
    expect(sent.map((s) => s.value)).toEqual(["a", "ab"]);
  });

  it("close drops the held draft and ignores later ones", () => {
    const { pacer, sent, advance, pendingTimers } = setup();
    pacer.push("a");
    pacer.push("ab");
    pacer.close();
    expect(pendingTimers()).toBe(0);
    pacer.push("abc");
    pacer.flush();
    advance(100);
    expect(sent.map((s) => s.value)).toEqual(["a"]);
  });

  it("a send that reports nothing went out starts no gap", () => {
    const { pacer, sent } = setup(null);
    pacer.push("a");
    pacer.push("b");
    expect(sent.map((s) => s.value)).toEqual(["a", "b"]);
  });

  it("the gap the send asks for is the one kept", () => {
    const { pacer, sent, advance } = setup(200);
    pacer.push("a");
    pacer.push("b");
    advance(199);
    expect(sent).toHaveLength(1);
    advance(1);
    expect(sent.map((s) => s.value)).toEqual(["a", "b"]);
  });
});
