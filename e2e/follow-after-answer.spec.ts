import { expect, test, type Locator, type Page } from "@playwright/test";
import { startLab, type Lab } from "../tests/helpers/browser-lab";
import { passwordFieldCentre, startBrowsingArgus, useBrowseScenario } from "./browse-lab";
import { ask, coinsFile, shot, useScenario } from "./support";

/**
 * Answering a card is the person's own move, like sending a message: the
 * transcript follows the run from there, even when they had scrolled up a
 * little to read the question (which used to leave the answer, and the whole
 * rest of the run, behind "Jump to latest"). A first cell warms the kernel
 * before the question; after the answer the run goes on for four printing
 * cells, so it outgrows the view, and then ends at once when the script has no
 * more turns (an error card): no coder and no second kernel, so the spec stays quick.
 * The same holds for the other two cards: a tool review (the run then prints four
 * cells) and a browser's safety check (the browser then takes four more steps).
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

/**
 * The person has scrolled the conversation all the way up (to re-read what the run did) with
 * the card's answer in keyboard focus, as after Alt+Shift+A or a Tab: the view is not following.
 */
async function scrollUpWithFocusOn(page: Page, answer: Locator): Promise<void> {
  await answer.focus();
  await page.getByRole("log", { name: "Conversation" }).evaluate((el) => (el.scrollTop = 0));
  await expect(page.getByTestId("jump-to-latest")).toBeVisible();
  await expect(answer).toBeFocused();
  await expect(answer).not.toBeInViewport();
}

/** The tool review is on screen, waiting (it opens on the judge's pick). */
async function waitingReview(page: Page): Promise<Locator> {
  await useScenario("review-then-long-run.json");
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await ask(page, "count the coins");
  const card = page.locator('[data-testid="interaction-card"][data-kind="tool_review"]');
  await expect(card).toHaveAttribute("data-state", "pending", { timeout: 0 });
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
  return card;
}

for (const [width, viewport] of [["desktop", { width: 1280, height: 720 }], ["phone", { width: 390, height: 844 }]] as const) {
  test.describe(`tool review, ${width}`, () => {
    test.use({ viewport });

    test(`${width}: after choosing a tool in the review, from scrolled up, the chat follows the run`, async ({ page }) => {
      // The candidates run in the first cell, which waits for a kernel: a cold start under load
      // took past 4 minutes once, so this budget is the coins specs' (finding-things, phone-batch).
      test.setTimeout(360_000);
      const card = await waitingReview(page);
      const use = card.getByRole("button", { name: "Use this tool" });
      await scrollUpWithFocusOn(page, use);
      await page.keyboard.press("Enter");
      await expect(card).toContainText(/You answered/);
      await expectFollowing(page);
      await shot(page, `follow-after-review-${width}`);
    });
  });
}

test.describe("safety card", () => {
  let lab: Lab;
  let argus: Awaited<ReturnType<typeof startBrowsingArgus>> | undefined;
  test.beforeAll(async () => {
    lab = await startLab();
    argus = await startBrowsingArgus(lab);
  });
  test.afterAll(async () => {
    await argus?.stop();
    await lab?.close();
  });

  for (const [width, viewport] of [["desktop", { width: 1280, height: 720 }], ["phone", { width: 390, height: 844 }]] as const) {
    test(`${width}: after refusing a safety check, from scrolled up, the chat follows the browser`, async ({ browser }) => {
      const measure = await browser.newPage();
      const field = await passwordFieldCentre(measure, lab);
      await measure.close();
      await useBrowseScenario("safety-then-long-run.json", { LAB: lab.origin, PASSWORD_X: field.x, PASSWORD_Y: field.y });

      const page = await browser.newPage({ viewport });
      await page.goto(argus!.url);
      await ask(page, "Sign in to the lab with the password hunter2.");
      const card = page.locator('[data-testid="interaction-card"][data-kind="safety"]');
      await expect(card).toHaveAttribute("data-state", "pending", { timeout: 0 });
      await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
      await scrollUpWithFocusOn(page, card.getByTestId("safety-refuse"));
      await page.keyboard.press("Enter");
      await expect(card).toContainText("You answered: Refuse");

      // The browser's four more steps and the answer came in view, as they arrived.
      const log = page.getByRole("log", { name: "Conversation" });
      await expect(page.getByTestId("status-line")).toContainText("Done", { timeout: 0 });
      await expect(page.getByTestId("message-conversation").last()).toContainText("stopped before typing the password");
      expect(await log.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(200);
      await expect(page.getByTestId("message-conversation").last()).toBeInViewport();
      await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
      await shot(page, `follow-after-safety-${width}`);
      await page.close();
    });
  }
});
