/**
 * Which page of a session's browser the Computer acts on. A page opened by the
 * current one (target=_blank, window.open) becomes the active page, as a
 * person's browser would switch to it; when the active page closes, the one
 * active before it takes over. Also tracks main-frame navigations in flight,
 * so an action can wait for the page it caused before the next screenshot.
 *
 * A navigation that ends without a new document (Chromium aborts it) is most
 * often a download, announced a moment later: it is waited for briefly, so
 * the action that started a download returns with the download under way.
 */
import type { BrowserContext, Page, Request } from "playwright-core";

/** A navigation still pending after this long is treated as stuck, not waited for again. */
const STUCK_NAVIGATION_MS = 15_000;
/** A tab Chromium made that Playwright has not announced after this long will not be waited for. */
const STUCK_NEW_PAGE_MS = 5_000;
/** How long a navigation that ended without a new document may still turn out to be a download. */
const DOWNLOAD_GRACE_MS = 1_000;
/** At most this many tabs per browser: one more, however a page opened it, is closed at once. */
export const MAX_TABS = 10;

export class Tabs {
  /** Pages in the order they became active; the last is the active one. */
  private readonly order: Page[] = [];
  private readonly navigations = new Map<Request, { since: number; page: Page }>();
  private readonly lastCommit = new WeakMap<Page, number>();
  private unannouncedSince: number | null = null;
  private maybeDownloadSince: number | null = null;

  /** `pagesInChromium`: how many pages Chromium itself has in this context (page-targets.ts). */
  constructor(
    context: BrowserContext,
    private readonly onNewPage: (page: Page) => void,
    private readonly pagesInChromium: () => number = () => 0,
  ) {
    context.on("page", (page) => this.adopt(page));
    for (const page of context.pages()) this.adopt(page);
    context.on("request", (request) => {
      const page = mainFramePage(request);
      if (page) this.navigations.set(request, { since: Date.now(), page });
    });
    const done = (request: Request) => {
      const navigation = this.navigations.get(request);
      this.navigations.delete(request);
      if (navigation && (this.lastCommit.get(navigation.page) ?? 0) < navigation.since) this.maybeDownloadSince = Date.now();
    };
    context.on("requestfinished", done);
    context.on("requestfailed", done);
  }

  private adopt(page: Page): void {
    if (this.order.includes(page)) return;
    if (this.order.length >= MAX_TABS) {
      void page.close().catch(() => undefined);
      return;
    }
    this.order.push(page);
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      this.lastCommit.set(page, Date.now());
      this.maybeDownloadSince = null;
    });
    page.on("download", () => {
      this.maybeDownloadSince = null;
    });
    page.once("close", () => {
      const at = this.order.indexOf(page);
      if (at >= 0) this.order.splice(at, 1);
    });
    this.onNewPage(page);
  }

  /** The page actions go to, or null when every page has closed. */
  get active(): Page | null {
    return this.order.at(-1) ?? null;
  }

  get count(): number {
    return this.order.length;
  }

  /** Is a tab on its way: made by Chromium, not announced by Playwright yet (and not stuck)? */
  private tabComing(now: number): boolean {
    if (this.pagesInChromium() <= this.order.length) {
      this.unannouncedSince = null;
      return false;
    }
    this.unannouncedSince ??= now;
    return now - this.unannouncedSince < STUCK_NEW_PAGE_MS;
  }

  /** Is a page navigation, a new tab or a download on its way (and not stuck)? */
  navigating(now = Date.now()): boolean {
    if (this.tabComing(now)) return true;
    if (this.maybeDownloadSince !== null && now - this.maybeDownloadSince < DOWNLOAD_GRACE_MS) return true;
    for (const [request, { since }] of this.navigations) {
      if (now - since < STUCK_NAVIGATION_MS) return true;
      this.navigations.delete(request);
    }
    return false;
  }
}

/** The page whose main frame this request navigates, if it is such a navigation. */
function mainFramePage(request: Request): Page | null {
  try {
    const frame = request.frame();
    return request.isNavigationRequest() && frame.parentFrame() === null ? frame.page() : null;
  } catch {
    // Service-worker requests have no frame.
    return null;
  }
}
