import { expect, test } from "@playwright/test";
import { ask, useScenario } from "./support";

interface TabStop {
  name: string;
  width: number;
  height: number;
  visible: boolean;
  inComposer: boolean;
}

/** What has focus now: its name, its size on screen, and whether it is inside the composer. */
const focused = (): TabStop => {
  const el = document.activeElement as HTMLElement;
  const r = el.getBoundingClientRect();
  return {
    name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName,
    width: r.width,
    height: r.height,
    visible: el.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
    inComposer: el.closest('form[aria-label="Message"]') !== null,
  };
};

test("keyboard: a skip link first, no invisible tab stop in the composer, and a shortcut to the waiting card", async ({ page }) => {
  await useScenario("question-then-end.json");
  // The session list is fetched by an effect: once it answers, the page is interactive.
  const hydrated = page.waitForResponse((r) => r.url().endsWith("/api/sessions"));
  await page.goto("/");
  await hydrated;

  // The first Tab lands on the skip link, shown while it has focus.
  await page.keyboard.press("Tab");
  const first = await page.evaluate(focused);
  expect(first.name).toBe("Skip to the message box");
  expect(first.visible && first.width > 1 && first.height > 1, JSON.stringify(first)).toBe(true);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("composer-text")).toBeFocused();

  // Every tab stop in the composer is something a sighted keyboard user can see.
  const stops: TabStop[] = [];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(focused);
    if (!stop.inComposer) break;
    stops.push(stop);
  }
  expect(stops.map((s) => s.name)).toContain("Attach images or videos");
  for (const stop of stops) expect(stop.visible && stop.width > 1 && stop.height > 1, `invisible tab stop: ${JSON.stringify(stop)}`).toBe(true);

  // From the composer, the shortcut reaches the waiting card's first option; Enter answers it.
  await ask(page, "Count the coins, please.");
  const card = page.getByTestId("interaction-card");
  await expect(card).toHaveAttribute("data-state", "pending");
  await expect(card.getByTestId("card-shortcut")).toContainText("Alt+Shift+A");
  await expect(card).toHaveAttribute("aria-keyshortcuts", "Alt+Shift+A");
  const composer = page.getByTestId("composer-text");
  await composer.focus();
  await page.keyboard.press("Alt+Shift+A");
  await expect(card.getByRole("button", { name: "Hough circles" })).toBeFocused();
  await expect(composer).toHaveValue("");
  await page.keyboard.press("Enter");
  await expect(card).toContainText("You answered: Hough circles");
  // The script has no turn after the answer, so the run ends at once (nothing is left running).
  await expect(page.getByTestId("status-line")).toContainText("Stopped by an error");
});
