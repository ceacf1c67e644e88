import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { ask, coinsFile, useScenario } from "./support";

/**
 * Issue #29, what every chat has: the tab's title says when a run waits for the person, an answer
 * can be copied, and the chat can be taken away as Markdown with its pictures. One page for the
 * whole file: a planner question, answered, then the answer copied and the chat exported.
 */
test.use({ permissions: ["clipboard-read", "clipboard-write"] });
// A planner run with two kernel cells and a coder: its waits are bounded by this budget, not their own.
test.setTimeout(240_000);

test("the tab title says a question waits, Copy copies the answer, Export downloads chat.md with the pictures", async ({ page }) => {
  await useScenario("ask-mid-run.json");
  await page.goto("/");
  await expect(page).toHaveTitle("Argus");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await ask(page, "Count the coins, please.");

  // The run waits on the person: the tab says so, and stops saying so once answered.
  const card = page.getByTestId("interaction-card");
  await expect(card).toContainText("Hough circles or with a watershed", { timeout: 0 });
  await expect(page).toHaveTitle("(1) Waiting for you · Argus");
  await card.getByRole("button", { name: "Watershed" }).click();
  await expect(card).toContainText(/You answered/);
  await expect(page).toHaveTitle("Argus");

  // Copy on the answer puts its text on the clipboard.
  const answer = page.getByTestId("message-conversation").last();
  await expect(answer).toContainText("Done, using a watershed as you asked.", { timeout: 0 });
  await answer.getByRole("button", { name: "Copy answer" }).click();
  await expect(answer.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Done, using a watershed as you asked.");

  // Export from the sidebar: a zip of chat.md and the chat's pictures.
  const row = page.getByTestId("session-sidebar").getByTestId("session-row").first();
  const download = page.waitForEvent("download");
  await row.getByRole("link", { name: "Export Count the coins, please." }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("Count-the-coins-please.zip");
  const zip = (await file.path())!;
  expect(execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim().split("\n")).toEqual(["chat.md", "images/01-coins.png"]);
  const md = execFileSync("unzip", ["-p", zip, "chat.md"], { encoding: "utf8" });
  expect(md).toContain("## You\n\nCount the coins, please.\n\n![coins.png](<images/01-coins.png>)");
  expect(md).toContain("**Argus asked:** Should I count with Hough circles or with a watershed?");
  expect(md).toContain("### Planner · turn 1");
  expect(md).toContain("## Argus\n\nDone, using a watershed as you asked.");
});
