import { expect, test, type Locator, type Page } from "@playwright/test";
import { ask, useScenario } from "./support";

/**
 * Answering a card is the person's own move, like sending a message: the
 * transcript follows the run from there, even when they had scrolled up a
 * little to read the question (which used to leave the answer, and the whole
 * rest of the run, behind "Jump to latest"). A first cell warms the kernel
 * before the question; after the answer the run goes on for four printing
 * cells, so it outgrows the view, and then ends at once when the script has no
 * more turns (an error card): no coder and no second kernel, so the spec stays quick.
 */
async function expectFollowing(page: Page): Promise<void> {
  const log = page.getByRole("log", { name: "Conversation" });
  await expect(log.getByText("fourth line 11")).toBeVisible({ timeout: 0 });
  await expect(page.getByTestId("status-line")).toContainText("Stopped by an error", { timeout: 0 });
  // The run really outgrew the view, so following (or not) shows.
  expect(await log.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(200);
  await expect(page.getByTestId("error-card")).toBeInViewport();
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
}

/** The question is on screen, waiting; the chat is following it. */
async function waitingCard(page: Page): Promise<Locator> {
  await useScenario("answer-then-long-run.json");
  await page.goto("/");
  await ask(page, "Count the coins, please.");
  const card = page.getByTestId("interaction-card");
  await expect(card).toHaveAttribute("data-state", "pending", { timeout: 0 });
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
  return card;
}

test("desktop: after clicking a card's option the chat follows the run", async ({ page }) => {
  // The file's first cell waits for the server's first kernel, which on a busy machine can take a while.
  test.slow();
  const card = await waitingCard(page);
  const option = card.getByRole("button", { name: "Watershed" });
  // The person scrolls up a little, keeping the option in view (and clear of the "Jump to latest" button).
  const handle = await option.elementHandle();
  await page.getByRole("log", { name: "Conversation" }).evaluate((el, button) => {
    const below = el.getBoundingClientRect().bottom - (button as HTMLElement).getBoundingClientRect().bottom;
    el.scrollTop -= Math.max(60, 64 - below);
  }, handle);
  await expect(page.getByTestId("jump-to-latest")).toBeVisible();
  await option.click();
  await expect(card).toContainText(/You answered/);
  await expectFollowing(page);
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("phone: after typing an answer into the card the chat follows the run", async ({ page }) => {
    const card = await waitingCard(page);
    const answer = card.getByRole("textbox", { name: "Your answer" });
    await answer.fill("Watershed");
    // The person scrolls back up to re-read the question, then presses Enter in the answer box.
    await page.getByRole("log", { name: "Conversation" }).evaluate((el) => (el.scrollTop = 0));
    await expect(page.getByTestId("jump-to-latest")).toBeVisible();
    await expect(answer).toBeFocused();
    await answer.press("Enter");
    await expect(card).toContainText(/You answered/);
    await expectFollowing(page);
  });
});
