import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";

describe("browser settings", () => {
  it("defaults: Debian's Chromium, nothing blocked or allowed beyond the address rule, 10 idle minutes, 50 MB downloads", () => {
    expect(loadConfig({}, "/x").browser).toEqual({
      api: "chat",
      chromiumPath: "/usr/bin/chromium",
      policy: { block: [], allow: [] },
      idleMs: 10 * 60_000,
      maxDownloadBytes: 50 * 1024 * 1024,
      maxSteps: 24,
      screenEdge: 1024,
      deviceScale: 1,
    });
  });

  it("reads the lists and limits", () => {
    const c = loadConfig(
      {
        ARGUS_CHROMIUM: "/opt/chromium/chrome",
        ARGUS_BROWSER_BLOCK: "ads.example.com, *.tracker.net",
        ARGUS_BROWSER_ALLOW: "127.0.0.1:4000,intranet.local",
        ARGUS_BROWSER_IDLE_MINUTES: "0.5",
        ARGUS_BROWSER_MAX_DOWNLOAD_MB: "2",
        ARGUS_BROWSER_MAX_STEPS: "6",
        ARGUS_BROWSER_SCREEN_EDGE: "800",
        ARGUS_BROWSER_DEVICE_SCALE: "2",
      },
      "/x",
    );
    expect(c.browser).toEqual({
      api: "chat",
      chromiumPath: "/opt/chromium/chrome",
      policy: { block: ["ads.example.com", "tracker.net"], allow: [{ host: "127.0.0.1", port: 4000 }, { host: "intranet.local", port: null }] },
      idleMs: 30_000,
      maxDownloadBytes: 2 * 1024 * 1024,
      maxSteps: 6,
      screenEdge: 800,
      deviceScale: 2,
    });
  });

  it("stops on a bad entry, naming the variable and the entry", () => {
    expect(() => loadConfig({ ARGUS_BROWSER_BLOCK: "https://ads.example.com/" })).toThrow(
      'Invalid configuration: ARGUS_BROWSER_BLOCK: "https://ads.example.com/" is not a domain',
    );
    expect(() => loadConfig({ ARGUS_BROWSER_ALLOW: "localhost:0" })).toThrow(/ARGUS_BROWSER_ALLOW: "localhost:0" is not a host or host:port/);
    expect(() => loadConfig({ ARGUS_BROWSER_IDLE_MINUTES: "0" })).toThrow(/ARGUS_BROWSER_IDLE_MINUTES/);
    expect(() => loadConfig({ ARGUS_BROWSER_MAX_DOWNLOAD_MB: "-1" })).toThrow(/ARGUS_BROWSER_MAX_DOWNLOAD_MB/);
    expect(() => loadConfig({ ARGUS_BROWSER_MAX_STEPS: "0" })).toThrow(/ARGUS_BROWSER_MAX_STEPS/);
    expect(() => loadConfig({ ARGUS_BROWSER_SCREEN_EDGE: "50" })).toThrow(/ARGUS_BROWSER_SCREEN_EDGE/);
  });
});
