import { expect, test } from "@playwright/test";
import { ask, expectCleanTranscript, useScenario } from "./support";

test("reloading mid-run shows the whole transcript and keeps streaming", async ({ page }) => {
  await useScenario("slow-run.json");
  await page.goto("/");
  await ask(page, "take your time");
  await expect(page.getByTestId("step-block").first()).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("message-user")).toContainText("take your time");
  await expect(page.getByTestId("message-conversation").last()).toContainText("All three steps done", { timeout: 60_000 });
  await expectCleanTranscript(page);
});

test("going offline and online mid-run loses and doubles nothing", async ({ page, context }) => {
  await useScenario("slow-run.json");
  await page.goto("/");
  await ask(page, "take your time");
  await expect(page.getByTestId("step-block").first()).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByTestId("status-line")).toContainText(/reconnecting/i, { timeout: 15_000 });
  // What the person types while offline stays put.
  await page.getByTestId("composer-text").fill("typed while offline");
  await page.waitForTimeout(1500);
  await context.setOffline(false);
  await expect(page.getByTestId("status-line")).not.toContainText(/reconnecting/i, { timeout: 15_000 });
  await expect(page.getByTestId("composer-text")).toHaveValue("typed while offline");
  await expect(page.getByTestId("message-conversation").last()).toContainText("All three steps done", { timeout: 60_000 });
  await expectCleanTranscript(page);
  const shown = await page.locator("[data-seq]").count();
  const id = new URL(page.url()).searchParams.get("s")!;
  const transcript = (await (await page.request.get(`/api/sessions/${id}`)).json()) as { messages: unknown[] };
  expect(shown).toBe(transcript.messages.length);
});

test("the browser losing its connection for 30 s mid-run catches up with everything once back", async ({ page, context }) => {
  test.setTimeout(120_000);
  await useScenario("slow-run.json");
  await page.goto("/");
  await ask(page, "take your time");
  await expect(page.getByTestId("step-block").first()).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByTestId("status-line")).toContainText(/reconnecting/i, { timeout: 15_000 });
  await page.waitForTimeout(30_000);
  await context.setOffline(false);
  // The run finished while the page was away; the sync brings all of it.
  await expect(page.getByTestId("message-conversation").last()).toContainText("All three steps done", { timeout: 30_000 });
  await expectCleanTranscript(page);
  const id = new URL(page.url()).searchParams.get("s")!;
  const transcript = (await (await page.request.get(`/api/sessions/${id}`)).json()) as { messages: unknown[] };
  expect(await page.locator("[data-seq]").count()).toBe(transcript.messages.length);
});
