/**
 * Starting the one Chromium process all sessions share: Debian's browser (or
 * ARGUS_CHROMIUM), never a downloaded one, headless, inside a network
 * namespace of its own whose only way out is the egress proxy
 * (chromium-netns.ts). Playwright drives it over a pipe (file descriptors),
 * not a socket. The flags below are manners on top of that boundary: QUIC
 * off, WebRTC told to stay off UDP, Chromium's own name resolution off.
 */
import type { Browser } from "playwright-core";
import { isArgusError } from "@/lib/foundation/errors";
import { ChromiumNetns } from "./chromium-netns";
import type { EgressProxy } from "./egress-proxy";
import { browserUnavailable } from "./errors";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

export interface ChromiumLaunch {
  executablePath: string;
  /** The egress proxy every context falls back to; it is started here, on the namespace's socket. */
  launchProxy: EgressProxy;
  /** Where Chromium writes downloads while they arrive (download-watch.ts reads it). */
  downloadsPath: string;
}

export interface LaunchedChromium {
  browser: Browser;
  /** The browser's namespace: open a port in it for each context's own proxy. Closed with the browser. */
  netns: ChromiumNetns;
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

export async function launchChromium(o: ChromiumLaunch): Promise<LaunchedChromium> {
  const netns = await ChromiumNetns.prepare();
  try {
    const launchSocket = netns.socketPath("launch-proxy");
    await o.launchProxy.startOnSocket(launchSocket);
    const inside = netns.launchOptions(o.executablePath, launchSocket);
    // Loaded at the first launch, not with the server: playwright-core costs about a CPU-second to
    // import, paid at every start (and every test server's) though most never browse.
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: inside.executablePath,
      env: inside.env,
      headless: true,
      args: [...CHROMIUM_FLAGS, ...isolationFlags(inside.proxyServer)],
      // Playwright turns Chromium's popup blocker off; on, a page opens a tab only for a click
      // (one per click), not from a timer: a page cannot flood the machine with renderers.
      ignoreDefaultArgs: ["--disable-popup-blocking"],
      // Playwright adds <-loopback> to the bypass list, so loopback goes through the proxy too.
      proxy: { server: inside.proxyServer },
      downloadsPath: o.downloadsPath,
      timeout: 60_000,
    });
    browser.once("disconnected", () => void netns.close());
    try {
      await netns.ready();
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
    return { browser, netns };
  } catch (error) {
    await netns.close();
    await o.launchProxy.close();
    if (isArgusError(error)) throw error;
    const first = String((error as Error)?.message ?? error).split("\n")[0];
    throw browserUnavailable(`Chromium could not be started from ${o.executablePath} (set ARGUS_CHROMIUM to the browser's path): ${first}`, error);
  }
}
