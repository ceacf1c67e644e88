import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordedCells } from "@/lib/engines/kernels/cell-record";
import { DEFAULT_COLLECTOR_LIMITS } from "@/lib/engines/kernels/execution-collector";
import { eventually, startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

/**
 * A cell that prints megabytes: the kernel itself keeps the head and the tail
 * (python/argus/stream_cap.py), so only those cross jupyter-server, and the
 * cell's output reads exactly as when the server did the cutting.
 */

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "1" });
});
afterAll(async () => {
  await k?.close();
});

const FLOOD = `
import sys
print("FIRST")
line = "y" * 1023 + "\\n"
for _ in range(10 * 1024): sys.stdout.write(line)
print("LAST")
`;

describe("a flood of printed output", () => {
  it("arrives as its head, a note of what was left out, and its tail, and no more crosses the wire", async () => {
    const s = await k.newSession();
    let streamed = 0;
    const r = await k.kernels.execute(s.id, FLOOD, { timeoutMs: 120_000, onStream: (_, text) => (streamed += text.length) });
    expect(r.error).toBeNull();
    expect(r.stdout.startsWith("FIRST\n")).toBe(true);
    expect(r.stdout.endsWith("y\nLAST\n")).toBe(true);
    const notes = [...r.stdout.matchAll(/\n\[\.\.\. (\d+) characters of output omitted \.\.\.\]\n/g)];
    expect(notes).toHaveLength(1);
    const total = "FIRST\n".length + 10 * 1024 * 1024 + "LAST\n".length;
    const kept = r.stdout.length - notes[0]![0].length;
    expect(kept + Number(notes[0]![1])).toBe(total);
    expect(streamed).toBeLessThan(2_100_000);
    // The notebook export keeps it whole (in a file beside the database, not in the cell's row).
    await eventually(async () => (await recordedCells({ db: k.core.db, dataDir: k.dir }, s.id)).at(-1)?.execution.stdout === r.stdout);
  });

  it("still sends the tail when the cell fails after printing, and the next cell starts afresh", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, `${FLOOD}\nraise ValueError("after the flood")`, { timeoutMs: 120_000 });
    expect(r.error?.name).toBe("ValueError");
    expect(r.stdout.endsWith("LAST\n")).toBe(true);
    const next = await k.kernels.execute(s.id, "print('short')");
    expect(next.stdout).toBe("short\n");
  });

  it("keeps at most the collector's characters of display data when a cell displays raw bundles without end", async () => {
    // display(raw=True) goes around the kernel's stream cap: 80 bundles of 2 M characters (the last 50 alone were 100 M).
    const s = await k.newSession();
    const code = "from IPython.display import display\nfor i in range(80):\n    display({'text/plain': str(i % 10) * 2_000_000}, raw=True)";
    const r = await k.kernels.execute(s.id, code, { timeoutMs: 120_000 });
    expect(r.error).toBeNull();
    const kept = r.results.reduce((sum, x) => sum + Object.values(x.data).reduce((n, v) => n + v.length, 0), 0);
    expect(kept).toBeLessThanOrEqual(DEFAULT_COLLECTOR_LIMITS.maxResultChars);
    expect(r.results.at(-1)!.data["text/plain"]![0]).toBe("9"); // the last ones win
    expect(r.stderr).toMatch(/display outputs omitted/);
  });
});
