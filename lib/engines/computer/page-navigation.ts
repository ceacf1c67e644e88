/**
 * Moving one page to another address, or back and forward in its history, with a refusal by the
 * gates said in words rather than as Chromium's "net::ERR_…".
 */
import type { Page } from "playwright-core";
import { browserUnavailable, refused } from "./errors";
import { firstLine } from "./page-text";
import type { RefusalLog } from "./refusal-log";

/** Opens `url` in `page` (already judged allowed as a top-level address). */
export async function openAddress(page: Page, url: string, options: { refusals: RefusalLog; timeoutMs: number }): Promise<void> {
  const mark = options.refusals.mark();
  let failure: unknown = null;
  await page.goto(url, { waitUntil: "load", timeout: options.timeoutMs }).catch((error: unknown) => (failure = error));
  // A redirect the gates refused: say so, rather than "net::ERR_…".
  const pageRefusal = options.refusals.since(mark).findLast((r) => r.topLevel === true || (r.topLevel === null && (failure !== null || r.target === page.url())));
  if (pageRefusal) throw refused(pageRefusal.message);
  // A URL that is a file: the navigation becomes a download, recorded in downloads().
  if (failure !== null && /Download is starting/.test(firstLine(failure))) return;
  if (failure !== null) throw browserUnavailable(`Could not open ${url}: ${firstLine(failure)}`, failure);
}

/**
 * Back or forward. Leaving an error page (a refused navigation) swaps the page's renderer, and
 * for a moment Chromium answers "not attached": try again briefly then.
 */
export async function stepHistory(page: Page, direction: "back" | "forward", timeoutMs: number): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const options = { waitUntil: "load", timeout: timeoutMs } as const;
      await (direction === "back" ? page.goBack(options) : page.goForward(options));
      return;
    } catch (error) {
      if (attempt >= 5 || !/Not attached to an active page|Execution context was destroyed/.test(firstLine(error))) throw error;
      await new Promise<void>((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
