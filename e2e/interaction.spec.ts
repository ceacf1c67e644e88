import { expect, test } from "@playwright/test";
import { ask, expectCleanTranscript, shot, useScenario } from "./support";

test("a planner question answered by clicking an option", async ({ page }) => {
  await useScenario("ask-mid-run.json");
  await page.goto("/");
  await ask(page, "Count the coins, please.");
  const card = page.getByTestId("interaction-card");
  // The question comes after the planner's first cell: bounded by the test's budget, not the 30 s
  // default, since a cold kernel start on a busy machine takes longer (as in xss and tool-review).
  await expect(card).toContainText("Hough circles or with a watershed", { timeout: 0 });
  await expect(page.getByTestId("status-line")).toContainText(/answer/i);
  await shot(page, "question-pending");
  await card.getByRole("button", { name: "Watershed" }).click();
  await expect(card).toContainText(/You answered/);
  await expect(page.getByTestId("message-conversation").last()).toContainText("watershed as you asked", { timeout: 0 });
  await expect(page.getByTestId("message-observation").filter({ hasText: "still here: 150" })).toBeVisible();
  await expectCleanTranscript(page);
});

test("a planner question answered by typing", async ({ page }) => {
  await useScenario("ask-mid-run.json");
  await page.goto("/");
  await ask(page, "Count the coins, please.");
  await expect(page.getByTestId("interaction-card")).toBeVisible({ timeout: 0 });
  await ask(page, "Watershed please");
  await expect(page.getByTestId("interaction-card")).toContainText(/You answered/);
  await expect(page.getByTestId("message-conversation").last()).toContainText("watershed as you asked", { timeout: 0 });
});
