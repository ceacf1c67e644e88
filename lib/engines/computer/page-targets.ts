/**
 * Which pages Chromium has created, per browser context, straight from the
 * DevTools protocol. Playwright announces a new tab (context "page" event)
 * only after setting it up, often after the click that opened it has
 * returned; Chromium reports the target at once. While Chromium knows more
 * pages than Playwright has announced, a tab is on its way, and the action
 * that opened it waits for it (settle.ts).
 */
import type { Browser, BrowserContext, CDPSession } from "playwright-core";

interface TargetInfo {
  targetId: string;
  type: string;
  browserContextId?: string;
}

export class PageTargets {
  private readonly byContext = new Map<string, Set<string>>();

  private constructor(private readonly session: CDPSession) {
    session.on("Target.targetCreated", ({ targetInfo }: { targetInfo: TargetInfo }) => {
      if (targetInfo.type !== "page" || !targetInfo.browserContextId) return;
      const pages = this.byContext.get(targetInfo.browserContextId) ?? new Set<string>();
      pages.add(targetInfo.targetId);
      this.byContext.set(targetInfo.browserContextId, pages);
    });
    session.on("Target.targetDestroyed", ({ targetId }: { targetId: string }) => {
      for (const pages of this.byContext.values()) pages.delete(targetId);
    });
  }

  static async start(browser: Browser): Promise<PageTargets> {
    const session = await browser.newBrowserCDPSession();
    const targets = new PageTargets(session);
    await session.send("Target.setDiscoverTargets", { discover: true });
    return targets;
  }

  /** The DevTools id of a context, read from one of its pages. */
  static async contextId(context: BrowserContext): Promise<string> {
    const page = context.pages()[0] ?? (await context.newPage());
    const session = await context.newCDPSession(page);
    try {
      const { targetInfo } = (await session.send("Target.getTargetInfo")) as { targetInfo: TargetInfo };
      return targetInfo.browserContextId ?? "";
    } finally {
      await session.detach().catch(() => undefined);
    }
  }

  /** Pages Chromium has in the context, announced by Playwright or not. */
  count(contextId: string): number {
    return this.byContext.get(contextId)?.size ?? 0;
  }

  forget(contextId: string): void {
    this.byContext.delete(contextId);
  }
}
