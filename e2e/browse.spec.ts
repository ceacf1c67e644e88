/**
 * The browsing agent in the chat, end to end: the conversation calls `browse`,
 * the browser (real Chromium, inside Argus) clicks into the lab's password
 * field and wants to type → a safety card → the person refuses → the run goes
 * on and finishes. The chat shows the browser's steps, the Browser tab its
 * screenshots.
 *
 * This spec starts its own Argus (the shared one has no browser model), with
 * ARGUS_MODEL_BROWSER set and the lab — a tiny site on loopback — allowed.
 * The model is the shared scripted one; the scenario's {{placeholders}} are
 * filled with the lab's address and where its password field is.
 */
import { expect, test } from "@playwright/test";
import { startLab, type Lab } from "../tests/helpers/browser-lab";
import { passwordFieldCentre, SCREEN, startBrowsingArgus, useBrowseScenario } from "./browse-lab";
import { ask, expectCleanTranscript, shot } from "./support";

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

test("the browser asks before typing a password; Refuse keeps it out and the run finishes", async ({ browser }) => {
  const measure = await browser.newPage();
  const field = await passwordFieldCentre(measure, lab);
  await measure.close();
  await useBrowseScenario("browse.json", { LAB: lab.origin, PASSWORD_X: field.x, PASSWORD_Y: field.y });

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(argus!.url);
  await ask(page, "Sign in to the lab with the password hunter2.");

  // The safety card: what, where, why (and who raised it); Refuse is the focused default.
  const card = page.locator('[data-testid="interaction-card"][data-kind="safety"]');
  await expect(card).toBeVisible();
  await expect(card.getByTestId("safety-action")).toContainText("hunter2");
  await expect(card.getByTestId("safety-url")).toContainText(`${lab.hostPort}/form.html`);
  await expect(card.getByTestId("safety-checks")).toContainText("password field");
  await expect(card.getByTestId("safety-checks")).toContainText("Argus's safety policy");
  await expect(card.locator("img")).toBeVisible();
  await expect(card.getByTestId("safety-refuse")).toBeFocused();
  await shot(page, "browse-safety-card");
  await card.getByTestId("safety-refuse").click();
  await expect(card).toHaveAttribute("data-state", "answered");
  await expect(card).toContainText("You answered: Refuse");
  await expect(card.getByTestId("safety-confirm")).toBeDisabled();

  // The run goes on: the browser is told, says so, and the conversation reports.
  await expect(page.getByTestId("message-conversation").last()).toContainText("stopped before typing the password");
  await expect(page.getByTestId("status-line")).toContainText("Done");

  // The browser's steps in the chat: opening the page, the click (with the pointer), the refused typing, done.
  const steps = page.getByTestId("browser-step");
  await expect(steps.filter({ hasText: `goto(${lab.origin}/form.html)` })).toBeVisible();
  const click = steps.filter({ hasText: "click(" });
  await expect(click.getByTestId("browser-url")).toContainText(`${lab.hostPort}/form.html`);
  await expect(click.getByTestId("pointer-marker")).toBeVisible();
  await expect(steps.filter({ has: page.getByTestId("browser-error") }).getByTestId("browser-error")).toContainText("refused");
  await expect(steps.filter({ hasText: "Browser · done" })).toContainText("you refused typing the password");
  // The thinking is in the folded part until the step is opened.
  await expect(click).not.toContainText("The password field is under the name field.");
  await click.locator("button[aria-expanded]").first().click();
  await expect(click).toContainText("The password field is under the name field.");

  // The Browser tab: the latest screenshot, its page, and stepping back through the stream.
  await page.getByTestId("tab-browser").click();
  const tab = page.getByTestId("browser-tab");
  const screen = tab.getByTestId("browser-screen").locator("img");
  await expect(screen).toBeVisible();
  expect(await screen.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(tab.getByTestId("browser-tab-url")).toContainText(`${lab.hostPort}/form.html`);
  await expect(tab.getByTestId("browser-title")).toContainText("Lab Shop: sign in");
  await expect(tab.getByTestId("browser-show-latest")).toHaveCount(0);
  await tab.getByRole("button", { name: "Previous screenshot" }).click();
  await expect(tab.getByTestId("browser-screen")).toHaveAttribute("data-latest", "false");
  // The screen after the click shows where it clicked, on the password field whatever the image's pixel size.
  const marker = tab.getByTestId("pointer-marker");
  await expect(marker).toBeVisible();
  const shown = tab.getByTestId("browser-screen").locator("img");
  const natural = await shown.evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(natural).toBeGreaterThan(SCREEN.width);
  const img = (await shown.boundingBox())!;
  const dot = (await marker.boundingBox())!;
  const centre = { x: dot.x + dot.width / 2, y: dot.y + dot.height / 2 };
  expect(Math.abs(centre.x - (img.x + (field.x / SCREEN.width) * img.width))).toBeLessThan(2);
  expect(Math.abs(centre.y - (img.y + (field.y / SCREEN.height) * img.height))).toBeLessThan(2);
  await tab.getByTestId("browser-show-latest").click();
  await expect(tab.getByTestId("browser-screen")).toHaveAttribute("data-latest", "true");
  await shot(page, "browse-browser-tab");

  // The policy setting: on by default, saved with the session.
  const toggle = tab.getByRole("switch", { name: "Ask before risky steps" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(toggle).toBeEnabled();
  await page.reload();
  await page.getByTestId("tab-browser").click();
  await expect(page.getByRole("switch", { name: "Ask before risky steps" })).toHaveAttribute("aria-checked", "false");

  await expectCleanTranscript(page);
  // Refused means the field stayed empty: no sign-in request reached the lab.
  expect(lab.hits.some((h) => h.includes("/signed-in"))).toBe(false);
  await page.close();
});
