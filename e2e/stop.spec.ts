import { expect, test } from "@playwright/test";
import { ask, shot, useScenario } from "./support";

test("Stop during a long cell really stops it, and the next message works", async ({ page }) => {
  await useScenario("cancel.json");
  await page.goto("/");
  await ask(page, "slow please");
  await expect(page.getByTestId("step-block")).toBeVisible();
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("status-line")).toContainText(/stopped/i, { timeout: 10_000 });
  await shot(page, "stopped");
  await ask(page, "still there?");
  await expect(page.getByTestId("message-conversation").last()).toContainText("ready when you are");
});
