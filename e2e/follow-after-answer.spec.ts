import { expect, test, type Page } from "@playwright/test";
import { ask, useScenario } from "./support";

/**
 * Answering a card is the person's own move, like sending a message: the
 * transcript follows the run from there. The scenario's run goes on for four
 * printing cells after the answer, so it outgrows the view, and then ends at
 * once when the script has no more turns (an error card): no coder and no
 * second kernel, which keeps the spec quick.
 */
async function expectFollowing(page: Page): Promise<void> {
  const log = page.getByRole("log", { name: "Conversation" });
  await expect(log.getByText("fourth line 11")).toBeVisible({ timeout: 0 });
  const last = page.getByTestId("error-card");
  await expect(page.getByTestId("status-line")).toContainText("Stopped by an error", { timeout: 0 });
  // The run really outgrew the view, so following (or not) shows.
  expect(await log.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(200);
  await expect(last).toBeInViewport();
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
}

test("desktop: after clicking a card's option the chat follows the run", async ({ page }) => {
  // The file's first cell waits for the server's first kernel, which on a busy machine can take a while.
  test.slow();
  await useScenario("answer-then-long-run.json");
  await page.goto("/");
  await ask(page, "Count the coins, please.");
  const card = page.getByTestId("interaction-card");
  await card.getByRole("button", { name: "Watershed" }).click();
  await expect(card).toContainText(/You answered/);
  await expectFollowing(page);
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("phone: after typing an answer into the card the chat follows the run", async ({ page }) => {
    await useScenario("answer-then-long-run.json");
    await page.goto("/");
    await ask(page, "Count the coins, please.");
    const card = page.getByTestId("interaction-card");
    const answer = card.getByRole("textbox", { name: "Your answer" });
    await answer.fill("Watershed");
    await answer.press("Enter");
    await expect(card).toContainText(/You answered/);
    await expectFollowing(page);
  });
});
