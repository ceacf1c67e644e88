import { expect, type Browser, type Page } from "@playwright/test";
import { startOwnArgus } from "./own-server";
import { ask, useScenario } from "./support";

/**
 * A chat whose run must start its kernel cold, so its step shows what it waits for. The shared
 * e2e server pools a kernel, and whether one is ready when a run asks depends on what ran before
 * and on the machine's load; this chat is on a server of its own with no pool
 * (ARGUS_KERNEL_POOL=0), where the first cell of a chat always starts its notebook.
 */
export async function chatWaitingForKernel(browser: Browser, viewport = { width: 1280, height: 720 }): Promise<{ page: Page; stop: () => Promise<void> }> {
  await useScenario("waits.json");
  const server = await startOwnArgus({ ARGUS_KERNEL_POOL: "0" });
  const context = await browser.newContext({ baseURL: server.url, viewport });
  const page = await context.newPage();
  await page.goto("/");
  await ask(page, "how long will this take?");
  await expect(page.getByTestId("step-block")).toBeVisible({ timeout: 0 });
  return {
    page,
    stop: async () => {
      await context.close();
      await server.stop();
    },
  };
}
