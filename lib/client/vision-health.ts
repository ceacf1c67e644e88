import type { VisionToolsHealth } from "@/lib/foundation/protocol/health";

export interface VisionHealthRow {
  key: string;
  label: string;
  value: string;
  /** Shown as a problem (a model that failed to load). */
  problem: boolean;
}

/** The status page's rows for the neural tools, in plain words. Pure. */
export function visionHealthRows(vision: VisionToolsHealth | undefined): VisionHealthRow[] {
  if (!vision) return [{ key: "state", label: "Vision engine", value: "not reported", problem: true }];
  const mb = Math.round(vision.rssBytes / 1024 / 1024);
  const { running, waiting, limit } = vision.queue;
  return [
    { key: "state", label: "Vision engine", value: vision.state, problem: false },
    { key: "memory", label: "Memory", value: `${mb} MB`, problem: false },
    { key: "queue", label: "Queue", value: `${running} running, ${waiting} waiting (at most ${limit}; more get 429)`, problem: false },
    ...vision.models.map((m) => ({
      key: `model-${m.name}`,
      label: m.name,
      value: m.error ? `failed: ${m.error}` : m.loaded ? "loaded" : "loads on first use",
      problem: Boolean(m.error),
    })),
  ];
}
