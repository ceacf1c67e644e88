import { expect, test, type Locator, type Page } from "@playwright/test";
import { shot } from "./support";

/**
 * Issue #29, the sidebar's rows: the row's actions (rename, export, delete) take room only when
 * they show, as in ChatGPT: on hover, while the keyboard is in the row, on the open chat, and
 * always on a touch screen. Elsewhere a title has the row's whole width, so long titles are cut
 * later. Hidden actions stay in the tab order: Tab reaches them, and they show when it does.
 */
const LONG = "How many of the coins on this dark wooden table are touching one another, and which ones are they?";
const OTHER = "Count the red cells in the second slide, please, and mark each one";

/** Two chats made over the API as the page's own client makes them, titled. */
async function makeChats(page: Page): Promise<void> {
  await page.goto("/");
  await page.evaluate(async (titles) => {
    for (const title of titles) {
      const proof = localStorage.getItem("argus.browserProof") ?? "";
      const res = await fetch("/api/sessions", { method: "POST", headers: { "content-type": "application/json", "x-argus-browser-proof": proof }, body: JSON.stringify({ title }) });
      if (!res.ok) throw new Error(await res.text());
      localStorage.setItem("argus.browserProof", ((await res.json()) as { browserProof: string }).browserProof);
    }
  }, [OTHER, LONG]);
  await page.reload();
}

/** The title's visible width against the row's: how much of the row the title may use. */
async function titleShare(row: Locator): Promise<number> {
  return row.evaluate((li) => {
    const title = li.querySelector<HTMLElement>('[data-testid="session-title"]')!;
    const width = (el: HTMLElement) => el.getBoundingClientRect().width - parseFloat(getComputedStyle(el).paddingRight);
    return width(title) / li.getBoundingClientRect().width;
  });
}

const actionsOf = (row: Locator) => row.getByTestId("session-actions");

test("a row's title uses the whole row until its actions show; the actions show on hover and on focus, and Tab reaches them", async ({ page }) => {
  await makeChats(page);
  const sidebar = page.getByTestId("session-sidebar");
  const row = sidebar.getByTestId("session-row").filter({ hasText: LONG });
  await expect(row).toBeVisible();
  // Nothing hovered or focused in the row: its actions are out of sight and the title has the width.
  await page.mouse.move(900, 500);
  await expect(actionsOf(row)).toHaveCSS("opacity", "0");
  const idle = await titleShare(row);
  // The row's own padding aside, the whole row (three icon buttons are about a third of it).
  expect(idle).toBeGreaterThan(0.85);
  await shot(page, "sidebar-rows-idle");

  // Hovered: the actions show, and the title stops short of them instead of running under them.
  await row.hover();
  await expect(actionsOf(row)).toHaveCSS("opacity", "1");
  await expect.poll(() => titleShare(row)).toBeLessThan(idle - 0.15);
  await shot(page, "sidebar-row-hover");

  // By keyboard alone: the title, then Tab to each action, which shows while focused; Enter acts.
  await page.mouse.move(900, 500);
  await row.getByRole("button", { name: LONG, exact: true }).focus();
  await expect(actionsOf(row)).toHaveCSS("opacity", "1");
  await page.keyboard.press("Tab");
  const rename = row.getByRole("button", { name: `Rename ${LONG}` });
  await expect(rename).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(row.getByRole("link", { name: `Export ${LONG}` })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(row.getByRole("button", { name: `Delete ${LONG}` })).toBeFocused();
  await expect(actionsOf(row)).toHaveCSS("opacity", "1");
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(rename).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(sidebar.getByRole("textbox", { name: "New title" })).toBeFocused();
  await page.keyboard.press("Escape");

  // Leaving the row hides the actions again.
  await page.getByTestId("composer-text").focus();
  await expect(actionsOf(row)).toHaveCSS("opacity", "0");

  // The open chat shows its actions all the time (its title makes room for them).
  await row.getByRole("button", { name: LONG, exact: true }).click();
  await page.getByTestId("composer-text").focus();
  await page.mouse.move(900, 500);
  await expect(row.getByRole("button", { name: LONG, exact: true })).toHaveAttribute("aria-current", "page");
  await expect(actionsOf(row)).toHaveCSS("opacity", "1");
  await expect(actionsOf(sidebar.getByTestId("session-row").filter({ hasText: OTHER }))).toHaveCSS("opacity", "0");
});

test.describe("touch", () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test("on a touch screen, where nothing hovers, every row shows its actions", async ({ page }) => {
    await makeChats(page);
    await page.getByRole("button", { name: "Chats" }).click();
    const rows = page.getByTestId("session-row");
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) await expect(actionsOf(row)).toHaveCSS("opacity", "1");
  });
});
