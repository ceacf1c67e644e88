/**
 * After an action, wait until the screen shows its effect before the next
 * screenshot: a frame drawn after the input, then any page navigation it
 * started (a link, a form, a new tab) loaded. Bounded throughout, and never
 * an error: a page that will not finish loading is shown as it is.
 */
import type { Page } from "playwright-core";
import type { Tabs } from "./tabs";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Two animation frames: the input has been handled and drawn. A page can stall rAF, hence the bound. */
export async function nextFrames(page: Page, timeoutMs = 1_000): Promise<void> {
  await Promise.race([
    page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))).catch(() => undefined),
    sleep(timeoutMs),
  ]);
}

export async function settle(tabs: Tabs, budgetMs = 8_000): Promise<void> {
  const deadline = Date.now() + budgetMs;
  const first = tabs.active;
  if (!first) return;
  await nextFrames(first);
  while (tabs.navigating() && Date.now() < deadline) await sleep(20);
  const page = tabs.active;
  if (!page) return;
  await page.waitForLoadState("load", { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
  if (page !== first) await nextFrames(page);
}
