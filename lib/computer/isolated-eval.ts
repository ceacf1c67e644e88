/**
 * Evaluates a script in an isolated world of the page's main frame (DevTools
 * `Page.createIsolatedWorld`), the way extensions read pages: it shares the
 * DOM but not the page's JavaScript, so a page that replaced
 * `document.elementFromPoint` or an element's getters cannot lie to it. The
 * safety policy reads the page only this way.
 */
import type { Page } from "playwright-core";

export async function evaluateIsolated(page: Page, expression: string): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = (await cdp.send("Page.getFrameTree")) as { frameTree: { frame: { id: string } } };
    const { executionContextId } = (await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "argus-safety-probe" })) as {
      executionContextId: number;
    };
    const { result, exceptionDetails } = (await cdp.send("Runtime.evaluate", { expression, contextId: executionContextId, returnByValue: true })) as {
      result: { value?: unknown };
      exceptionDetails?: unknown;
    };
    return exceptionDetails ? null : (result.value ?? null);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
