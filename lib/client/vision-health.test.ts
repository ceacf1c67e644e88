import { describe, expect, it } from "vitest";
import { visionHealthRows } from "./vision-health";

describe("visionHealthRows", () => {
  it("says what each model is doing, the memory in MB and how full the queue is", () => {
    const rows = visionHealthRows({
      state: "ready",
      rssBytes: 300 * 1024 * 1024,
      queue: { running: 1, waiting: 2, limit: 8 },
      models: [
        { name: "detector", loaded: true },
        { name: "pose", loaded: false },
        { name: "text", loaded: false, error: "weights missing" },
      ],
    });
    expect(rows.map((r) => [r.label, r.value, r.problem])).toEqual([
      ["Vision engine", "ready", false],
      ["Memory", "300 MB", false],
      ["Queue", "1 running, 2 waiting (at most 8; more get 429)", false],
      ["detector", "loaded", false],
      ["pose", "loads on first use", false],
      ["text", "failed: weights missing", true],
    ]);
  });

  it("marks a server that reports nothing", () => {
    expect(visionHealthRows(undefined)).toEqual([{ key: "state", label: "Vision engine", value: "not reported", problem: true }]);
  });
});
