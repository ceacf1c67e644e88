import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ask, openStep, useScenario } from "./support";

/**
 * The screenshots in the docs (docs/screenshots/). Not part of the suite: run
 *   ARGUS_SCREENSHOTS=1 npx playwright test e2e/look.spec.ts
 * to refresh them after a visual change.
 */
test.skip(!process.env.ARGUS_SCREENSHOTS, "set ARGUS_SCREENSHOTS=1 to refresh docs/screenshots");

const DIR = "docs/screenshots";
/** A screenshot without a stray focus ring from the last click. */
async function save(page: Page, name: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(DIR, `${name}.png`) });
}

async function exampleRun(page: Page): Promise<void> {
  await useScenario("count-coins.json");
  await page.goto("/");
  await page.getByRole("button", { name: "Try an example" }).click();
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await page.getByTestId("composer-text").press("Enter");
  await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 60_000 });
  await expect(page.getByTestId("status-line")).toContainText("Done");
}

test.describe("desktop", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("empty chat, a chat with a run, the preview pane", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Try an example" })).toBeVisible();
    await save(page, "empty-chat");

    await exampleRun(page);
    await openStep(page.getByTestId("step-block").first());
    await page.getByTestId("tab-result").click();
    await expect(page.getByTestId("result-image")).toBeVisible();
    await page.getByRole("log", { name: "Conversation" }).evaluate((el) => (el.scrollTop = 0));
    await save(page, "chat-with-run");

    await page.getByTestId("tab-code").click();
    await expect(page.getByText("def count_coins").first()).toBeVisible();
    await save(page, "preview-code");
  });

  test("a chat link opened in another browser", async ({ page, browser }) => {
    await page.goto("/");
    const { id } = await page.evaluate(async () => (await (await fetch("/api/sessions", { method: "POST" })).json()) as { id: string });
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const stranger = await other.newPage();
    await stranger.goto(new URL(`/?s=${id}`, page.url()).href);
    await expect(stranger.getByTestId("chat-unavailable")).toBeVisible();
    await save(stranger, "chat-unavailable");
    await other.close();
  });
});

test.describe("the chat a person lives in", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the skip link, a card waiting with its shortcut, a stopped step", async ({ page }) => {
    const hydrated = page.waitForResponse((r) => r.url().endsWith("/api/sessions"));
    await page.goto("/");
    await hydrated;
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to the message box" })).toBeFocused();
    await page.screenshot({ path: path.join(DIR, "skip-link.png") });

    await useScenario("question-then-end.json");
    await ask(page, "Count the coins, please.");
    await expect(page.getByTestId("card-shortcut")).toBeVisible();
    await save(page, "card-waiting");
    await page.keyboard.press("Alt+Shift+A");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("status-line")).toContainText("Stopped by an error");

    await useScenario("stop-mid-cell.json");
    await page.getByRole("button", { name: "New chat" }).click();
    await ask(page, "slow please");
    await expect(page.getByTestId("step-block").filter({ hasText: "kernel is warm" })).toHaveAttribute("data-status", "Done", { timeout: 0 });
    await expect(page.getByTestId("step-block").filter({ hasText: "A slow step." })).toHaveAttribute("data-status", "Running…");
    await page.getByTestId("stop").click();
    await expect(page.getByTestId("run-stopped")).toBeVisible();
    await save(page, "step-stopped");
    // The last turn of the scenario answers the next message; used here so it does not linger for another spec.
    await ask(page, "still there?");
    await expect(page.getByTestId("message-conversation").last()).toContainText("ready when you are");
  });
});

test.describe("dark", () => {
  test.use({ viewport: { width: 1440, height: 900 }, colorScheme: "dark" });

  test("a chat with a run in dark mode", async ({ page }) => {
    await exampleRun(page);
    await page.getByTestId("tab-result").click();
    await expect(page.getByTestId("result-image")).toBeVisible();
    await save(page, "chat-dark");
  });
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });

  test("phone width: the chat, and the preview as a drawer", async ({ page }) => {
    await exampleRun(page);
    await save(page, "phone-chat");
    await page.getByTestId("open-preview").click();
    await page.getByTestId("tab-result").click();
    await expect(page.getByTestId("result-image")).toBeVisible();
    await save(page, "phone-preview");
  });
});
