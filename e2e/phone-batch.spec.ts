import { expect, test } from "@playwright/test";
import { ask, askCoinCount, shot, useScenario } from "./support";

// A coins run and a batch: the waits on them are bounded by this budget, not their own (kernel starts vary under load).
test.setTimeout(360_000);
test.use({ viewport: { width: 390, height: 844 } });

/**
 * Issue #29, finding things, at phone width: the batch panel lives in the preview, which is a
 * closed drawer on a phone. A batch that starts from the chat ("run it on all of them") opens the
 * drawer on the Code tab with the panel in sight, so the person sees its progress without
 * knowing where to look.
 */
test("phone: 'run it on all of them' opens the preview drawer on the batch's progress", async ({ page }) => {
  await askCoinCount(page, "count-coins.json");
  const drawer = page.getByRole("dialog", { name: "Preview" });
  await expect(drawer).toHaveCount(0);

  await useScenario("run-on-all.json");
  await ask(page, "Great, now do it for all of them.");
  await expect(drawer).toBeVisible({ timeout: 0 });
  await expect(drawer.getByTestId("tab-code")).toHaveAttribute("aria-selected", "true");
  const panel = drawer.getByTestId("batch-panel");
  await expect(panel).toContainText("Batch: count_coins", { timeout: 0 });
  await expect(panel).toBeInViewport();
  await expect(panel.getByRole("progressbar")).toBeVisible();
  await shot(page, "phone-batch-drawer");

  // Closed, the drawer gives the chat back, where the run's answer is.
  await drawer.getByRole("button", { name: "Close preview" }).click();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByTestId("message-conversation").last()).toContainText("count_coins");
});
