import { readFileSync } from "node:fs";
import { expect, request, test } from "@playwright/test";
import { ask, askCoinCount, coinsFile, shot } from "./support";

// Each test here is two whole runs (each with the coder's test in a fresh kernel) and the work
// between them: three times the usual budget, as a busy machine stretches all of it alike.
test.slow();

test("the Code tab lists the function's versions, shows the diff between them and a ready curl line", async ({ page }) => {
  await askCoinCount(page, "count-coins.json");

  await page.getByTestId("tab-code").click();
  const versions = page.getByTestId("function-versions");
  await expect(versions.locator("li")).toHaveCount(1);
  await expect(versions).toContainText("v1");
  const curl = page.getByTestId("curl-line");
  await expect(curl).toContainText("/functions/count_coins/run");
  await expect(curl).toContainText("Authorization: Bearer $ARGUS_TOKEN");
  await expect(curl).toContainText('-F "file=@image.png"');
  // The runnable export: the script beside the argus package, downloaded with the browser's cookie.
  const zip = page.waitForEvent("download");
  await page.getByTestId("download-zip").click();
  const download = await zip;
  expect(download.suggestedFilename()).toBe("count_coins.zip");
  expect(readFileSync((await download.path())!).subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");

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

test("a session that keeps two functions lets the person pick which one the Code tab and the batch panel show", async ({ page }) => {
  await askCoinCount(page, "two-functions.json");
  await page.getByTestId("tab-code").click();
  // One function kept: no picker.
  await expect(page.getByTestId("function-versions")).toContainText("v1");
  await expect(page.getByTestId("function-picker")).toHaveCount(0);

  await ask(page, "And how big is the biggest coin?");
  await expect(page.getByTestId("message-conversation").last()).toContainText("biggest_coin", { timeout: 60_000 });
  await page.getByTestId("tab-code").click();
  const picker = page.getByTestId("function-picker");
  await expect(picker).toHaveValue("biggest_coin");
  await expect(picker.locator("option")).toHaveText(["biggest_coin (v1)", "count_coins (v1)"]);
  const code = page.getByLabel("Final code");
  await expect(code).toContainText("def biggest_coin");
  await expect(page.getByTestId("curl-line")).toContainText("/functions/biggest_coin/run");

  // Picking the first function shows its code, its versions, its curl line and its batch run.
  await picker.selectOption("count_coins");
  await expect(code).toContainText("def count_coins");
  await expect(code).not.toContainText("def biggest_coin");
  await expect(page.getByRole("heading", { name: "Versions of count_coins" })).toBeVisible();
  await expect(page.getByTestId("curl-line")).toContainText("/functions/count_coins/run");
  await expect(page.getByRole("button", { name: /Run on images/ })).toBeVisible();
  // The window crossing the phone breakpoint and back mounts the pane elsewhere: what the person chose stays.
  const wide = page.viewportSize()!;
  await page.setViewportSize({ width: 600, height: wide.height });
  await expect(page.getByTestId("open-preview")).toBeVisible();
  await page.setViewportSize(wide);
  await expect(page.getByTestId("tab-code")).toHaveAttribute("aria-selected", "true");
  await expect(picker).toHaveValue("count_coins");
  await expect(code).toContainText("def count_coins");
  await page.getByRole("button", { name: /Run on images/ }).click();
  await expect(page.getByRole("dialog")).toContainText("Run count_coins on images");
  await shot(page, "functions-picker");
});
