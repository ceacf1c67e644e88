import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CellClock } from "./cell-clock";

describe("CellClock", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("expires once its limit has passed", () => {
    const expired = vi.fn();
    new CellClock(1000, expired).start();
    vi.advanceTimersByTime(999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("stands still while held, and goes on with the time that was left", async () => {
    const expired = vi.fn();
    const clock = new CellClock(1000, expired);
    clock.start();
    vi.advanceTimersByTime(400);
    let answer!: (v: string) => void;
    const held = clock.hold(new Promise<string>((r) => (answer = r)));
    vi.advanceTimersByTime(10_000); // the person takes their time
    expect(expired).not.toHaveBeenCalled();
    answer("approved");
    await expect(held).resolves.toBe("approved");
    vi.advanceTimersByTime(599);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("resumes only when the last of overlapping holds ends", async () => {
    const expired = vi.fn();
    const clock = new CellClock(100, expired);
    clock.start();
    let endFirst!: () => void;
    let endSecond!: () => void;
    const first = clock.hold(new Promise<void>((r) => (endFirst = r)));
    const second = clock.hold(new Promise<void>((r) => (endSecond = r)));
    endFirst();
    await first;
    vi.advanceTimersByTime(1000);
    expect(expired).not.toHaveBeenCalled();
    endSecond();
    await second;
    vi.advanceTimersByTime(100);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("never expires once stopped", () => {
    const expired = vi.fn();
    const clock = new CellClock(100, expired);
    clock.start();
    clock.stop();
    vi.advanceTimersByTime(1000);
    expect(expired).not.toHaveBeenCalled();
  });
});
