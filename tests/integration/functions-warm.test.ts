import { describe, expect, it } from "vitest";
import type { WarmFunctionRunners } from "@/lib/features/functions/warm-runners";
import { eventually } from "@/tests/helpers/kernel-core";
import { tinyInput, warmCoreForFile, warmRunners } from "@/tests/helpers/warm-runners";

/**
 * Kernels kept warm between HTTP calls of a function, with real sandboxed kernels. Whether two
 * calls shared a kernel is read from the kernel itself: the function counts its calls in a module
 * it leaves in sys.modules, which only the same Python process still has.
 */
const COUNTING = [
  "import sys, types",
  "def f(p):",
  "    probe = sys.modules.setdefault('argus_warm_probe', types.ModuleType('argus_warm_probe'))",
  "    probe.calls = getattr(probe, 'calls', 0) + 1",
  "    return [probe.calls, sorted(n for n in __import__('os').listdir('.') if not n.startswith('.'))]",
].join("\n");
const HANGS_ON_SLOW = [
  "import sys, types, time",
  "def f(p):",
  "    probe = sys.modules.setdefault('argus_warm_probe', types.ModuleType('argus_warm_probe'))",
  "    probe.calls = getattr(probe, 'calls', 0) + 1",
  "    if p == 'slow.png':",
  "        while True:",
  "            time.sleep(0.05)",
  "    return [probe.calls]",
].join("\n");

const t = warmCoreForFile();

const input = tinyInput;
const callsSeen = async (w: WarmFunctionRunners, fn: { sessionId: string; name: string; code: string }, name?: string) => {
  const out = await w.call(fn, input(name));
  expect(out.error, JSON.stringify(out)).toBeUndefined();
  return (out.result as [number, string[]])[0];
};

describe("warm function kernels", () => {
  it("runs calls in a row in one kernel, and the second call sees none of the first one's files", async () => {
    const s = await t.k.newSession();
    const fn = { sessionId: s.id, name: "f", code: COUNTING };
    const first = await t.warm.call(fn, input("a.png"));
    const second = await t.warm.call(fn, input("b.png"));
    expect(first.result).toEqual([1, ["a.png"]]);
    expect(second.result).toEqual([2, ["b.png"]]);
    expect(t.warm.size()).toBe(1);
  });

  it("never shares a kernel between versions or sessions, and makes room by giving up the longest unused", async () => {
    const a = await t.k.newSession();
    const b = await t.k.newSession();
    const v1 = { sessionId: a.id, name: "f", code: COUNTING };
    const v2 = { sessionId: a.id, name: "f", code: `${COUNTING}\n# version 2` };
    const other = { sessionId: b.id, name: "f", code: COUNTING };
    const w = warmRunners(t.k);
    try {
      expect(await callsSeen(w, v1)).toBe(1);
      expect(await callsSeen(w, v2)).toBe(1);
      expect(await callsSeen(w, v1)).toBe(2);
      // Full: the other session's call takes v2's place (unused the longest), never v1's kernel.
      expect(await callsSeen(w, other)).toBe(1);
      expect(w.size()).toBe(2);
      expect(await callsSeen(w, v1)).toBe(3);
      expect(await callsSeen(w, v2)).toBe(1);
    } finally {
      await w.close();
    }
  });

  it("gives a call that finds its kernel busy a kernel of its own", async () => {
    const s = await t.k.newSession();
    const fn = { sessionId: s.id, name: "f", code: COUNTING };
    const w = warmRunners(t.k, { max: 1 });
    try {
      const [one, two] = await Promise.all([callsSeen(w, fn), callsSeen(w, fn)]);
      expect([one, two]).toEqual([1, 1]);
      expect(w.size()).toBe(1);
    } finally {
      await w.close();
    }
  });

  it("replaces the kernel after a call that timed out", async () => {
    const s = await t.k.newSession();
    const fn = { sessionId: s.id, name: "f", code: HANGS_ON_SLOW };
    expect(await callsSeen(t.warm, fn)).toBe(1);
    const hung = await t.warm.call(fn, input("slow.png"), { limits: { timeoutMs: 2000 } });
    expect(hung.error?.kind).toBe("timeout");
    expect(await callsSeen(t.warm, fn)).toBe(1);
  });

  it("gives the kernels back when the session goes, and after the idle time", async () => {
    const s = await t.k.newSession();
    const fn = { sessionId: s.id, name: "f", code: COUNTING };
    const w = warmRunners(t.k);
    try {
      expect(await callsSeen(w, fn)).toBe(1);
      await w.closeSession(s.id);
      expect(w.size()).toBe(0);
      expect(await callsSeen(w, fn)).toBe(1);
    } finally {
      await w.close();
    }
    const brief = warmRunners(t.k, { idleMs: 200 });
    try {
      expect(await callsSeen(brief, fn)).toBe(1);
      await eventually(() => brief.size() === 0, 30_000);
      expect(await callsSeen(brief, fn)).toBe(1);
    } finally {
      await brief.close();
    }
  });

  it("with warm kernels turned off, every call gets a fresh one", async () => {
    const s = await t.k.newSession();
    const fn = { sessionId: s.id, name: "f", code: COUNTING };
    const off = warmRunners(t.k, { max: 0 });
    expect(await callsSeen(off, fn)).toBe(1);
    expect(await callsSeen(off, fn)).toBe(1);
    expect(off.size()).toBe(0);
  });
});
