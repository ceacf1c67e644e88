import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { chatWaitingForKernel } from "./kernel-wait";
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

  test("Edit and Regenerate, and an earlier version", async ({ page }) => {
    await useScenario("two-answers.json");
    await page.goto("/");
    await page.getByTestId("composer-text").fill("Describe this chat in one line.");
    await page.getByTestId("composer-text").press("Enter");
    await expect(page.getByTestId("message-conversation")).toContainText("First answer.");
    await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible();
    await save(page, "chat-redo");

    await page.getByTestId("edit-message-button").click();
    await page.getByRole("textbox", { name: "Edit your message" }).fill("Describe this chat in two lines.");
    await page.getByTestId("edit-message").getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("message-conversation")).toHaveText(/Second answer\./);
    await page.getByTestId("show-earlier-version").click();
    await expect(page.getByTestId("earlier-version")).toContainText("First answer.");
    await save(page, "chat-earlier-version");
  });

  test("a run waiting for its notebook, and the model picker", async ({ page, browser }) => {
    test.setTimeout(300_000); // a server of its own, and a kernel started cold
    const waiting = await chatWaitingForKernel(browser, { width: 1440, height: 900 });
    try {
      await expect(waiting.page.getByTestId("wait-note")).toContainText(/s so far/, { timeout: 0 });
      await save(waiting.page, "wait-starting-notebook");
    } finally {
      await waiting.stop();
    }
    await useScenario("chosen-models.json");
    await page.goto("/");
    await page.getByTestId("model-picker").getByRole("button", { name: /Models/ }).click();
    await page.getByTestId("model-for-conversation").selectOption("conversation-large");
    await expect(page.getByTestId("model-picker")).toContainText("1 chosen for this chat");
    await save(page, "model-picker");
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

test.describe("the chat a person lives in (issue #29)", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the sidebar by day, a long message collapsed, the composer past the limit", async ({ page }) => {
    await useScenario("hello.json");
    await page.goto("/");
    // A few chats of this browser, titled as their first questions would title them.
    await page.evaluate(async () => {
      for (const title of ["Count the coins on the table", "Which of these leaves are diseased?", "Read the café menu board"]) {
        // With the page's proof, as its own client sends it (lib/client/browser-proof.ts): the chats so far come along.
        const proof = localStorage.getItem("argus.browserProof") ?? "";
        const res = await fetch("/api/sessions", { method: "POST", headers: { "content-type": "application/json", "x-argus-browser-proof": proof }, body: JSON.stringify({ title }) });
        localStorage.setItem("argus.browserProof", ((await res.json()) as { browserProof: string }).browserProof);
      }
    });
    await page.reload();
    const paragraph = (i: number) => `Paragraph ${i} of the field notes: the leaves on the north side show brown spots near the veins, and some are curled. `.repeat(2);
    await page.getByTestId("composer-text").fill(Array.from({ length: 30 }, (_, i) => paragraph(i + 1)).join("\n"));
    await page.getByTestId("composer-text").press("Enter");
    await expect(page.getByTestId("message-conversation")).toContainText("Hello");
    await expect(page.getByRole("button", { name: /Show more/ })).toBeVisible();
    await expect(page.getByTestId("session-row")).toHaveCount(4);
    await save(page, "long-message");
    await page.getByTestId("session-sidebar").screenshot({ path: path.join(DIR, "sidebar.png") });

    await page.getByTestId("composer-text").fill("x".repeat(20_250));
    await expect(page.getByTestId("send")).toBeDisabled();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.getByRole("form", { name: "Message" }).screenshot({ path: path.join(DIR, "composer-limit.png") });
  });

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
    // The slow step, found by its always-shown heading (the first step folds when it starts).
    const slow = page.getByTestId("step-block").filter({ hasText: "A slow step." });
    await expect(slow).toHaveAttribute("data-status", "Running…", { timeout: 0 });
    await openStep(slow);
    await expect(slow).toContainText("counted 7 coins so far", { timeout: 0 });
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
