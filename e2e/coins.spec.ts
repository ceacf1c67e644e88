import { expect, test } from "@playwright/test";
import { ask, coinsFile, expectCleanTranscript, modelRequests, openStep, shot, useScenario } from "./support";

test("upload the coins photo, watch the planner, get 24, the code, the overlay, the runnable .zip and the .ipynb", async ({ page }) => {
  await useScenario("count-coins.json");
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await shot(page, "coins-attached");
  await ask(page, "How many coins are on the table?");

  // The planner's turn streams in with the picture its code made, inline.
  const step = page.getByTestId("step-block").first();
  await openStep(step);
  await expect(step.locator("img").first()).toBeVisible();
  await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 60_000 });
  await expectCleanTranscript(page);
  await shot(page, "coins-answered");
  expect((await modelRequests()).filter((r) => r.model === "planner")[1]!.images).toBeGreaterThanOrEqual(1);

  // Code tab: the final function, downloadable as a zip that runs outside Argus (count_coins.py and its helpers).
  await page.getByTestId("tab-code").click();
  await expect(page.getByText("def count_coins").first()).toBeVisible();
  const zip = page.waitForEvent("download");
  await page.getByTestId("download-zip").click();
  const download = await zip;
  expect(download.suggestedFilename()).toBe("count_coins.zip");
  expect(download.url()).toMatch(/\/functions\/count_coins\/versions\/1\/export$/);

  // Result tab: the overlay.
  await page.getByTestId("tab-result").click();
  await expect(page.getByTestId("result-image")).toBeVisible();
  await shot(page, "coins-result");

  // Notebook tab: the planner's cell, downloadable as .ipynb.
  await page.getByTestId("tab-notebook").click();
  await expect(page.getByTestId("notebook-cell").first()).toContainText("watershed");
  const ipynb = page.waitForEvent("download");
  await page.getByTestId("download-ipynb").click();
  expect((await ipynb).suggestedFilename()).toMatch(/\.ipynb$/);
  await shot(page, "coins-notebook");
});
