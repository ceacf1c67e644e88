/**
 * Reads the page from an isolated world of its main frame (DevTools
 * `Page.createIsolatedWorld`), the way extensions read pages: it shares the
 * DOM but not the page's JavaScript, so a page that replaced
 * `document.elementFromPoint`, `fetch` or an element's getters cannot lie to
 * it. The safety policy reads the page only this way, and save_image fetches
 * an image's file this way.
 */
import type { CDPSession, Page } from "playwright-core";
import { PROBE_FUNCTION, FOCUS_EXPRESSION } from "./page-probe";

interface RemoteObject {
  value?: unknown;
  objectId?: string;
}

async function inIsolatedWorld<T>(page: Page, fn: (cdp: CDPSession, contextId: number) => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = (await cdp.send("Page.getFrameTree")) as { frameTree: { frame: { id: string } } };
    const { executionContextId } = (await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "argus-safety-probe" })) as {
      executionContextId: number;
    };
    return await fn(cdp, executionContextId);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The value of `expression` (awaited when it is a promise), or null when it threw. */
export function evaluateIsolated(page: Page, expression: string): Promise<unknown> {
  return inIsolatedWorld(page, async (cdp, contextId) => {
    const { result, exceptionDetails } = (await cdp.send("Runtime.evaluate", { expression, contextId, returnByValue: true, awaitPromise: true })) as {
      result: RemoteObject;
      exceptionDetails?: unknown;
    };
    return exceptionDetails ? null : (result.value ?? null);
  });
}

/**
 * The page probe's raw answer (page-probe.ts): the element Chromium's hit test finds at
 * `point` (inside shadow roots, open or closed, as a click would reach it), and the focused
 * element, marked opaque when a closed shadow root hides where the keys go.
 */
export function probeIsolated(page: Page, point: { x: number; y: number } | null): Promise<unknown> {
  return inIsolatedWorld(page, async (cdp, contextId) => {
    let at: RemoteObject = { value: null };
    if (point) {
      // The hit test takes the document's coordinates: the point on the screen plus the scroll.
      const scroll = (await cdp.send("Runtime.evaluate", { expression: "[window.scrollX, window.scrollY]", contextId, returnByValue: true })) as {
        result: { value: [number, number] };
      };
      const [sx, sy] = scroll.result.value;
      const hit = (await cdp
        .send("DOM.getNodeForLocation", { x: Math.floor(point.x + sx), y: Math.floor(point.y + sy), includeUserAgentShadowDOM: false })
        .catch(() => null)) as { backendNodeId: number } | null;
      // Nothing there (a page that takes no pointer events): the click reaches nothing either.
      if (hit) {
        const { object } = (await cdp.send("DOM.resolveNode", { backendNodeId: hit.backendNodeId, executionContextId: contextId })) as { object: RemoteObject };
        at = { objectId: object.objectId };
      }
    }
    const focused = (await cdp.send("Runtime.evaluate", { expression: FOCUS_EXPRESSION, contextId })) as { result: RemoteObject };
    let focus: RemoteObject = { value: null };
    let opaque = false;
    if (focused.result.objectId) {
      focus = { objectId: focused.result.objectId };
      const { node } = (await cdp.send("DOM.describeNode", { objectId: focused.result.objectId, depth: 0 })) as {
        node: { shadowRoots?: { shadowRootType?: string }[] };
      };
      opaque = (node.shadowRoots ?? []).some((r) => r.shadowRootType === "closed");
    }
    const { result, exceptionDetails } = (await cdp.send("Runtime.callFunctionOn", {
      functionDeclaration: PROBE_FUNCTION,
      executionContextId: contextId,
      arguments: [at, focus, { value: opaque }],
      returnByValue: true,
    })) as { result: RemoteObject; exceptionDetails?: unknown };
    return exceptionDetails ? null : (result.value ?? null);
  });
}
