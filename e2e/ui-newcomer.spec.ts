import { expect, test, type Page } from "@playwright/test";
import { ask, expectCleanTranscript, shot, useScenario } from "./support";

/** Counts the page's Socket.io traffic (WebSocket opens and polling requests). */
function socketTraffic(page: Page): () => number {
  let n = 0;
  page.on("websocket", (ws) => ws.url().includes("/socket.io/") && n++);
  page.on("request", (req) => req.url().includes("/socket.io/") && n++);
  return () => n;
}

test("a chat link opened in another browser says so in plain words, stops reconnecting and offers a new chat", async ({ page, browser }) => {
  await useScenario("hello.json");
  await page.goto("/");
  await ask(page, "hello");
  await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  const link = page.url();
  expect(new URL(link).searchParams.get("s")).toBeTruthy();

  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    const traffic = socketTraffic(stranger);
    await stranger.goto(link);
    const notice = stranger.getByTestId("chat-unavailable");
    await expect(notice).toContainText("belongs to another browser, or it no longer exists");
    // The API's wording for API clients never reaches the person, nor a red "Reconnecting…".
    await expect(stranger.getByText(/Bearer|Authorization/)).toHaveCount(0);
    await expect(stranger.getByTestId("status-line")).toHaveCount(0);
    await expect(stranger.getByText(/reconnecting/i)).toHaveCount(0);
    await expect(stranger.getByTestId("message-user")).toHaveCount(0);
    await shot(stranger, "chat-unavailable");
    // Once refused, the page stops trying: no more socket traffic.
    const settled = traffic();
    await stranger.waitForTimeout(3000);
    expect(traffic()).toBe(settled);
    await expect(stranger.getByText(/reconnecting/i)).toHaveCount(0);

    await stranger.getByRole("button", { name: "Start a new chat" }).click();
    await expect(notice).toHaveCount(0);
    expect(new URL(stranger.url()).searchParams.get("s")).toBeNull();
    await expect(stranger.getByTestId("composer-text")).toBeEditable();
    await expect(stranger.getByTestId("status-line")).toContainText("Ready");
  } finally {
    await other.close();
  }

  // The first browser still has its chat.
  await page.reload();
  await expect(page.getByTestId("message-user")).toContainText("hello");
  await expect(page.getByTestId("chat-unavailable")).toHaveCount(0);
});

test("a link to a chat that no longer exists says the same", async ({ page }) => {
  await page.goto("/?s=no-such-chat");
  await expect(page.getByTestId("chat-unavailable")).toContainText("no longer exists");
  await expect(page.getByRole("button", { name: "Start a new chat" })).toBeVisible();
});

test("an empty chat offers an example: the coins photo and a question, ready to send", async ({ page }) => {
  await useScenario("count-coins.json");
  await page.goto("/");
  await page.getByRole("button", { name: "Try an example" }).click();
  const chip = page.getByTestId("attachment-chip");
  await expect(chip).toContainText("coins.png");
  await expect(chip).toContainText("Ready");
  const box = page.getByTestId("composer-text");
  await expect(box).toHaveValue("How many coins are in this image?");
  await expect(box).toBeFocused();
  await shot(page, "example-ready");
  // It sends like anything the person typed: the scripted run counts the coins.
  await box.press("Enter");
  await expect(page.getByTestId("message-user")).toContainText("How many coins are in this image?");
  await expect(page.getByTestId("message-user").getByRole("link", { name: /Attachment 1/ })).toBeVisible();
  await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 60_000 });
  await expectCleanTranscript(page);
});

test("the composer's hint fits: placeholder and the Shift+Enter hint are both fully visible", async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    const box = page.getByTestId("composer-text");
    // The placeholder is not cut off: the textarea is wide enough for it.
    const fits = await box.evaluate((el: HTMLTextAreaElement) => {
      const probe = document.createElement("span");
      const cs = getComputedStyle(el);
      probe.style.font = cs.font;
      probe.style.whiteSpace = "pre";
      probe.style.position = "absolute";
      probe.textContent = el.placeholder;
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return need <= el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    });
    expect(fits).toBe(true);
    const hint = page.locator("#composer-hint");
    await expect(hint).toContainText("Shift+Enter for a new line");
    expect(await hint.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
});
