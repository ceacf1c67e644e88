import { describe, expect, it } from "vitest";
import { jupyterStartRetryDelayMs, retryJupyterStart } from "./jupyter-start-retry";

describe("retrying a jupyter-server that failed to start", () => {
  it("waits 5 s, then twice as long each time, never more than a minute", () => {
    expect([0, 1, 2, 3, 4, 10].map(jupyterStartRetryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
  });

  it("tries until the start succeeds, logging each failure, and says it started", async () => {
    const waits: number[] = [];
    const lines: string[] = [];
    let tries = 0;
    const started = await retryJupyterStart({
      start: async () => {
        if (++tries < 3) throw new Error("port taken");
      },
      stopped: () => false,
      log: (line) => lines.push(line),
      wait: async (ms) => void waits.push(ms),
    });
    expect(started).toBe(true);
    expect(waits).toEqual([5_000, 10_000, 20_000]);
    expect(lines).toEqual([
      "[argus] jupyter-server still did not start (retry 1): port taken",
      "[argus] jupyter-server still did not start (retry 2): port taken",
      "[argus] jupyter-server started on retry 3",
    ]);
  });

  it("stops trying once the server is closing, without starting Jupyter again", async () => {
    let stopped = false;
    let tries = 0;
    const started = await retryJupyterStart({
      start: async () => {
        tries++;
        throw new Error("no");
      },
      stopped: () => stopped,
      log: () => undefined,
      wait: async () => {
        if (tries === 2) stopped = true;
      },
    });
    expect(started).toBe(false);
    expect(tries).toBe(2);
  });
});
