/**
 * Routing glue: every request any page of a context makes is judged by the
 * network guard before it leaves Chromium, and a refused one is aborted as
 * `blockedbyclient` (the page sees a failed load, nothing crashes). The
 * handler never throws: a judgement that fails refuses, and a route that went
 * away meanwhile is let go. Redirect hops, WebSockets and DNS are the egress
 * proxy's part (egress-proxy.ts).
 */
import type { BrowserContext, Request } from "playwright-core";
import type { BrowserRefusal } from "./computer-types";
import type { Judgement, NetworkGuard } from "./network-guard";

function isTopLevel(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    return false;
  }
}

export async function guardRequests(context: BrowserContext, guard: NetworkGuard, onRefusal: (refusal: BrowserRefusal) => void): Promise<void> {
  await context.route(
    () => true,
    async (route) => {
      const request = route.request();
      const url = request.url();
      const topLevel = isTopLevel(request);
      let judged: Judgement;
      try {
        judged = await guard.judgeUrl(url, { topLevel });
      } catch {
        judged = { kind: "refuse", reason: "malformed", host: null, message: `${url.slice(0, 200)} could not be checked, so it was not loaded.` };
      }
      try {
        if (judged.kind === "allow") {
          await route.continue();
          return;
        }
        onRefusal({ target: url, reason: judged.reason, message: judged.message, topLevel });
        await route.abort("blockedbyclient");
      } catch {
        // The page closed or navigated away while the request was being judged.
      }
    },
  );
}
