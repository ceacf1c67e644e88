import { expect, test } from "@playwright/test";
import { ask, askCoinCount, useScenario } from "./support";

// A coins run and a batch: the waits on them are bounded by this budget, not their own (kernel starts vary under load).
test.setTimeout(360_000);

/**
 * Issue #29, finding things: a turn has one number everywhere (the Result tab names the step the
 * chat shows), the curl hint says how a browser user gets a token, and a batch started from the
 * chat comes into view. One coins run for the whole file.
 */
test("the Result names the chat's turn, the curl hint is actionable, and 'run it on all of them' brings the batch into view", async ({ page }) => {
  await askCoinCount(page, "count-coins.json");

  // The Result tab's caption names the step as the chat titles it, and that step is in the chat.
  await page.getByTestId("tab-result").click();
  const caption = page.getByTestId("result-caption");
  await expect(caption).toHaveText(/\(Planner · turn \d+\)\.$/);
  const step = /\((Planner · turn \d+)\)/.exec((await caption.textContent()) ?? "")![1]!;
  await expect(page.locator('[data-testid="step-block"][data-agent="planner"]').getByText(step, { exact: true })).toHaveCount(1);

  // The curl hint tells a browser user what to press, not about a token they never saw.
  await page.getByTestId("tab-code").click();
  const http = page.getByRole("region", { name: "Run over HTTP" });
  await expect(http).toContainText("press Make a token for scripts");
  await expect(http).not.toContainText("POST /api/sessions");

  // Elsewhere in the pane, the person asks for all of them: the batch comes forward, in sight.
  await page.getByTestId("tab-media").click();
  await useScenario("run-on-all.json");
  await ask(page, "Great, now do it for all of them.");
  await expect(page.getByTestId("message-conversation").last()).toContainText("count_coins", { timeout: 0 });
  await expect(page.getByTestId("tab-code")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("batch-panel")).toBeInViewport();
  await expect(page.getByTestId("batch-panel")).toContainText("Batch: count_coins", { timeout: 0 });
});
