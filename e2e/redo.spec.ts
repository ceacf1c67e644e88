import { expect, test } from "@playwright/test";
import { ask, expectCleanTranscript, shot, useScenario } from "./support";

// Retry with finished steps before the fault (cells kept once, the notebook kept or rebuilt) is
// tests/integration/agents-continue.test.ts: here, without a kernel, so the spec stays quick.
test("Retry after a model fault continues the same run: the message is not posted again", async ({ page }) => {
  await useScenario("error-then-ok.json");
  await page.goto("/");
  await ask(page, "hello?");
  const card = page.getByTestId("error-card");
  await expect(card).toContainText(/API key/);
  await card.getByRole("button", { name: /retry/i }).click();
  await expect(page.getByTestId("message-conversation").last()).toContainText("Recovered");
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await expect(page.getByTestId("redo-note").filter({ hasText: /Continuing the run/ })).toHaveCount(1);
  // The failure is history now: no Retry on it any more.
  await expect(card.getByRole("button", { name: /retry/i })).toHaveCount(0);
  await expectCleanTranscript(page);
});

test("Regenerate answers the last message again; the earlier answer is kept as an earlier version", async ({ page }) => {
  await useScenario("two-answers.json");
  await page.goto("/");
  await ask(page, "say something");
  await expect(page.getByTestId("message-conversation")).toContainText("First answer.");
  await page.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByTestId("message-conversation")).toHaveText(/Second answer\./);
  await expect(page.getByTestId("message-conversation")).toHaveCount(1);
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await page.getByTestId("show-earlier-version").click();
  await expect(page.getByTestId("earlier-version")).toContainText("First answer.");
  await shot(page, "regenerated");
});

test("Edit a sent message and send it: the chat answers the new words, the old turn is kept as an earlier version", async ({ page }) => {
  await useScenario("two-answers.json");
  await page.goto("/");
  await ask(page, "what is one");
  await expect(page.getByTestId("message-conversation")).toContainText("First answer.");
  await page.getByTestId("edit-message-button").click();
  const box = page.getByRole("textbox", { name: "Edit your message" });
  await expect(box).toHaveValue("what is one");
  await box.fill("what is two");
  await page.getByTestId("edit-message").getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("message-conversation")).toHaveText(/Second answer\./);
  await expect(page.getByTestId("message-user")).toHaveText(["what is two"]);
  await page.getByTestId("show-earlier-version").click();
  await expect(page.getByTestId("earlier-version").getByTestId("message-user")).toHaveText("what is one");
  await expect(page.getByTestId("earlier-version")).toContainText("First answer.");
});
