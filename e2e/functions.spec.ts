import { expect, test } from "@playwright/test";
import { ask, coinsFile, shot, useScenario } from "./support";

test("the Code tab lists the function's versions, shows the diff between them and a ready curl line", async ({ page }) => {
  await useScenario("count-coins.json");
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await ask(page, "How many coins are on the table?");
  await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 60_000 });

  await page.getByTestId("tab-code").click();
  const versions = page.getByTestId("function-versions");
  await expect(versions.locator("li")).toHaveCount(1);
  await expect(versions).toContainText("v1");
  const curl = page.getByTestId("curl-line");
  await expect(curl).toContainText("/functions/count_coins/run");
  await expect(curl).toContainText("Authorization: Bearer $ARGUS_TOKEN");
  await expect(curl).toContainText('-F "file=@image.png"');

  // An edit_code run keeps version 2; the tab shows both and the change between them.
  await ask(page, "Can the function also return each coin's area?");
  await expect(page.getByTestId("message-conversation").last()).toContainText("also returns each coin's area", { timeout: 60_000 });
  await page.getByTestId("tab-code").click();
  await expect(versions.locator("li")).toHaveCount(2);
  await expect(page.getByTestId("diff-counts")).toContainText(/\d+ added, \d+ removed/);
  const table = page.getByRole("table", { name: "Changes from v1 to v2" });
  await expect(table.locator('[data-kind="added"]').filter({ hasText: "return int(keep.sum())" })).toHaveCount(1);
  await expect(table.locator('[data-kind="removed"]').filter({ hasText: "return int((sizes > 100).sum())" })).toHaveCount(1);
  await shot(page, "functions-versions-diff");

  // Comparing a version with itself shows no change.
  await page.getByLabel("Compare").selectOption("2");
  await expect(page.getByTestId("diff-counts")).toHaveText("No changes.");
});
