/**
 * Starting the one Chromium process all sessions share: Debian's browser (or
 * ARGUS_CHROMIUM), never a downloaded one, headless, with every request sent
 * through the egress proxy. Chromium's own name resolution is switched off,
 * so nothing that slipped past the proxy could even find a host.
 */
import { chromium, type Browser } from "playwright-core";
import { browserUnavailable } from "./errors";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

export interface ChromiumLaunch {
  executablePath: string;
  /** The egress proxy every context falls back to. */
  proxyServer: string;
  /** Where Chromium writes downloads while they arrive (download-watch.ts reads it). */
  downloadsPath: string;
}

/** Flags for a quiet, predictable headless Chromium (as in playwright.config.ts). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  // Instant scrolling: a wheel action has moved the page by the next frame.
  "--disable-smooth-scrolling",
];

/** Flags that keep the network to the egress proxy. */
export function isolationFlags(proxyServer: string): string[] {
  return [
    // WebRTC may not send UDP around the proxy.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${new URL(proxyServer).hostname}`,
  ];
}

export async function launchChromium(o: ChromiumLaunch): Promise<Browser> {
  try {
    return await chromium.launch({
      executablePath: o.executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS, ...isolationFlags(o.proxyServer)],
      // Playwright turns Chromium's popup blocker off; on, a page opens a tab only for a click
      // (one per click), not from a timer: a page cannot flood the machine with renderers.
      ignoreDefaultArgs: ["--disable-popup-blocking"],
      // Playwright adds <-loopback> to the bypass list, so loopback goes through the proxy too.
      proxy: { server: o.proxyServer },
      downloadsPath: o.downloadsPath,
      timeout: 60_000,
    });
  } catch (error) {
    const first = String((error as Error)?.message ?? error).split("\n")[0];
    throw browserUnavailable(`Chromium could not be started from ${o.executablePath} (set ARGUS_CHROMIUM to the browser's path): ${first}`, error);
  }
}
