import { expect, test } from "@playwright/test";
import { ask, shot, useScenario } from "./support";

test.use({ viewport: { width: 390, height: 844 } });

test("works at phone width, with the preview as a drawer", async ({ page }) => {
  await useScenario("hello.json");
  await page.goto("/");
  await expect(page.getByTestId("preview-section")).toBeHidden();
  await ask(page, "hello");
  await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  await page.getByTestId("open-preview").click();
  await expect(page.getByTestId("preview-section")).toBeVisible();
  await shot(page, "phone-preview");
  await page.getByRole("button", { name: "Close preview" }).click();
  await expect(page.getByTestId("preview-section")).toBeHidden();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
});
