/**
 * One browser per session, the way lib/engines/kernels/ keeps one kernel per session:
 * a session's context (its own cookies, pages and egress proxy) is started on
 * first use, kept while the session is live, and closed after it idles past
 * ARGUS_BROWSER_IDLE_MINUTES; the chat is told when a session's pages were
 * lost. All contexts share one Chromium process, launched on first use,
 * launched again if it died, and stopped when no session uses it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext } from "playwright-core";
import type { ArgusConfig } from "@/lib/foundation/config";
import { BrowserComputer } from "./browser-computer";
import type { ChromiumNetns } from "./chromium-netns";
import { launchChromium } from "./chromium";
import { guardRequests } from "./context-guard";
import { DownloadKeeper } from "./download-keeper";
import { DownloadSizeWatch } from "./download-watch";
import { EgressProxy } from "./egress-proxy";
import { browserUnavailable } from "./errors";
import { HostResolver } from "./host-resolver";
import { NetworkGuard } from "./network-guard";
import { PageTargets } from "./page-targets";
import { RefusalLog } from "./refusal-log";
import type { Dimensions } from "./screen";
import type { UrlPolicy } from "../../foundation/net/url-policy";

export interface ComputerManagerOptions {
  chromiumPath: string;
  policy: UrlPolicy;
  idleMs: number;
  maxDownloadBytes: number;
  /** The screen in CSS pixels; 1024×768 as in the CUA sample. */
  dimensions?: Dimensions;
  deviceScaleFactor?: number;
  navigationTimeoutMs?: number;
  log?: (line: string) => void;
  /** Tells the chat something about the session's browser (it was reset). */
  onNotice?: (sessionId: string, text: string) => void;
}

export class ComputerManager {
  private readonly guard: NetworkGuard;
  private readonly computers = new Map<string, BrowserComputer>();
  private readonly opening = new Map<string, Promise<BrowserComputer>>();
  private readonly resetReasons = new Map<string, string>();
  private browser: Browser | null = null;
  /** The running browser's network namespace, where each context's proxy gets a port. */
  private netns: ChromiumNetns | null = null;
  private proxies = 0;
  private pageTargets: PageTargets | null = null;
  private launching: Promise<{ browser: Browser; netns: ChromiumNetns }> | null = null;
  private shared: { downloadsDir: string; watch: DownloadSizeWatch } | null = null;
  private reaper: NodeJS.Timeout | null = null;

  constructor(private readonly o: ComputerManagerOptions) {
    this.guard = new NetworkGuard(o.policy, new HostResolver());
  }

  /** A manager with Argus's settings (ARGUS_CHROMIUM, ARGUS_BROWSER_*). */
  static fromConfig(browser: ArgusConfig["browser"], hooks: Pick<ComputerManagerOptions, "log" | "onNotice"> = {}): ComputerManager {
    return new ComputerManager({
      chromiumPath: browser.chromiumPath,
      policy: browser.policy,
      idleMs: browser.idleMs,
      maxDownloadBytes: browser.maxDownloadBytes,
      deviceScaleFactor: browser.deviceScale,
      ...hooks,
    });
  }

  get dimensions(): Dimensions {
    return this.o.dimensions ?? [1024, 768];
  }

  stats(): { chromium: "running" | "stopped"; sessions: number } {
    return { chromium: this.browser?.isConnected() ? "running" : "stopped", sessions: this.computers.size };
  }

  /** The session's browser, started (or replaced, if it was closed) on demand. Downloads land in `downloadDir`. */
  getComputer(sessionId: string, options: { downloadDir: string }): Promise<BrowserComputer> {
    const live = this.computers.get(sessionId);
    if (live && !live.closed) return Promise.resolve(live);
    if (live) {
      this.computers.delete(sessionId);
      if (!this.resetReasons.has(sessionId)) this.resetReasons.set(sessionId, "Chromium stopped unexpectedly");
    }
    const pending = this.opening.get(sessionId);
    if (pending) return pending;
    const opening = this.open(sessionId, options.downloadDir).finally(() => this.opening.delete(sessionId));
    this.opening.set(sessionId, opening);
    return opening;
  }

  private async open(sessionId: string, downloadDir: string): Promise<BrowserComputer> {
    this.reaper ??= setInterval(() => void this.reap(), Math.min(60_000, Math.max(1_000, this.o.idleMs / 4)));
    this.reaper.unref();
    const { browser, netns } = await this.ensureBrowser();
    const { watch } = this.shared!;
    const refusals = new RefusalLog();
    // The context's own proxy, so what it refuses is told to this session alone.
    const proxy = new EgressProxy(this.guard, ({ target, refusal }) => refusals.record({ target, reason: refusal.reason, message: refusal.message, topLevel: null }));
    const dimensions = this.dimensions;
    const deviceScaleFactor = this.o.deviceScaleFactor ?? 1;
    let context: BrowserContext | null = null;
    let port: number | null = null;
    try {
      // Reached from inside Chromium's namespace by a port of its loopback that the relay forwards here.
      const socketPath = netns.socketPath(`context-${++this.proxies}`);
      await proxy.startOnSocket(socketPath);
      port = await netns.open(socketPath);
      const proxyUrl = `http://127.0.0.1:${port}`;
      context = await browser.newContext({
        viewport: { width: dimensions[0], height: dimensions[1] },
        deviceScaleFactor,
        acceptDownloads: true,
        // A service worker's fetches would bypass request routing.
        serviceWorkers: "block",
        proxy: { server: proxyUrl },
      });
      await guardRequests(context, this.guard, (refusal) => refusals.record(refusal));
      const targets = this.pageTargets!;
      const contextId = await PageTargets.contextId(context);
      context.once("close", () => targets.forget(contextId));
      const computer = new BrowserComputer({
        context,
        guard: this.guard,
        refusals,
        downloads: new DownloadKeeper({ dir: downloadDir, maxBytes: this.o.maxDownloadBytes, watch }),
        dimensions,
        deviceScaleFactor,
        navigationTimeoutMs: this.o.navigationTimeoutMs,
        onClose: async () => {
          netns.release(port!);
          await proxy.close();
        },
        pagesInChromium: () => targets.count(contextId),
      });
      await computer.start();
      this.computers.set(sessionId, computer);
      const reason = this.resetReasons.get(sessionId);
      this.resetReasons.delete(sessionId);
      if (reason) this.o.onNotice?.(sessionId, `The browser was started again because ${reason}; pages that were open, and their logins, are gone.`);
      return computer;
    } catch (error) {
      await context?.close().catch(() => undefined);
      if (port !== null) netns.release(port);
      await proxy.close();
      throw browserUnavailable(`The browser could not open a window for this session: ${String((error as Error)?.message ?? error).split("\n")[0]}`, error);
    }
  }

  private ensureBrowser(): Promise<{ browser: Browser; netns: ChromiumNetns }> {
    if (this.browser?.isConnected() && this.netns) return Promise.resolve({ browser: this.browser, netns: this.netns });
    this.launching ??= (async () => {
      if (!this.shared) {
        const downloadsDir = await mkdtemp(path.join(os.tmpdir(), "argus-browser-downloads-"));
        this.shared = { downloadsDir, watch: new DownloadSizeWatch(downloadsDir, this.o.maxDownloadBytes) };
      }
      // The launch-wide proxy (for anything outside the contexts); it lives as long as this Chromium.
      const launchProxy = new EgressProxy(this.guard, ({ target, refusal }) => this.o.log?.(`[browser] refused ${target}: ${refusal.message}`));
      const { browser, netns } = await launchChromium({ executablePath: this.o.chromiumPath, launchProxy, downloadsPath: this.shared.downloadsDir });
      browser.once("disconnected", () => void launchProxy.close());
      try {
        this.pageTargets = await PageTargets.start(browser);
      } catch (error) {
        await browser.close().catch(() => undefined);
        throw error;
      }
      browser.once("disconnected", () => {
        if (this.browser !== browser) return;
        this.browser = null;
        this.netns = null;
        this.o.log?.("[browser] Chromium stopped; it starts again on the next browsing action");
      });
      this.browser = browser;
      this.netns = netns;
      return { browser, netns };
    })().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  /** Closes session browsers idle longer than the limit, and Chromium itself once no session uses it. */
  async reap(now = Date.now()): Promise<string[]> {
    const reaped: string[] = [];
    for (const [sessionId, computer] of this.computers) {
      if (computer.busy || now - computer.lastUsed < this.o.idleMs) continue;
      this.computers.delete(sessionId);
      const minutes = Math.round(this.o.idleMs / 60_000);
      this.resetReasons.set(sessionId, minutes >= 1 ? `it was idle for ${minutes} minutes and was closed to free memory` : "it was idle and was closed to free memory");
      reaped.push(sessionId);
      await computer.close();
    }
    if (this.computers.size === 0 && this.opening.size === 0 && !this.launching && this.browser) {
      const [browser, netns] = [this.browser, this.netns];
      this.browser = null;
      this.netns = null;
      await browser.close().catch(() => undefined);
      await netns?.close();
    }
    return reaped;
  }

  /** Closes a session's browser (the session was deleted). */
  async close(sessionId: string): Promise<void> {
    await this.opening.get(sessionId)?.catch(() => undefined);
    const computer = this.computers.get(sessionId);
    this.computers.delete(sessionId);
    this.resetReasons.delete(sessionId);
    await computer?.close();
  }

  /** Closes every session's browser and Chromium, and removes the downloads scratch directory. */
  async closeAll(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
    await Promise.allSettled([...this.opening.values(), ...(this.launching ? [this.launching] : [])]);
    const computers = [...this.computers.values()];
    this.computers.clear();
    this.resetReasons.clear();
    await Promise.all(computers.map((c) => c.close()));
    const [browser, netns] = [this.browser, this.netns];
    this.browser = null;
    this.netns = null;
    await browser?.close().catch(() => undefined);
    await netns?.close();
    const shared = this.shared;
    this.shared = null;
    if (shared) {
      shared.watch.stop();
      await rm(shared.downloadsDir, { recursive: true, force: true });
    }
  }
}
