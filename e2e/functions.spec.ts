import { readFileSync } from "node:fs";
import { expect, request, test } from "@playwright/test";
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

  // A session made in the browser has no token a script could use: the person makes one here.
  await page.getByTestId("make-function-token").click();
  await expect(page.getByTestId("function-token-note")).toContainText("shown once");
  await expect(curl).not.toContainText("$ARGUS_TOKEN");
  const line = (await curl.textContent()) ?? "";
  const token = /Bearer ([\w-]+)"/.exec(line)?.[1];
  expect(token).toBeTruthy();
  // The command works from outside the page (no cookie): the run endpoint counts the coins.
  const url = /'(http[^']+)'/.exec(line)![1]!;
  const script = await request.newContext();
  const answer = await script.post(url, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: "coins.png", mimeType: "image/png", buffer: readFileSync(coinsFile()) } },
  });
  expect(answer.status()).toBe(200);
  expect((await answer.json()).result).toBe(24);
  await script.dispose();

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
