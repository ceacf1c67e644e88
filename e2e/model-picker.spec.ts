import { expect, test } from "@playwright/test";
import { ask, modelRequests, useScenario } from "./support";

test("a chat chooses its conversation model from what the endpoint lists, and keeps it", async ({ page }) => {
  await useScenario("chosen-models.json");
  await page.goto("/");
  // The list comes through Argus's own route: the page never talks to the endpoint nor holds its key.
  const listing = page.waitForResponse((r) => r.url().endsWith("/api/models"));
  await page.getByTestId("model-picker").getByRole("button", { name: /Models/ }).click();
  expect((await listing).status()).toBe(200);
  const select = page.getByTestId("model-for-conversation");
  // Labelled for a screen reader by its role's name.
  await expect(page.getByRole("combobox", { name: "Conversation" })).toBeVisible();
  await expect(select.locator("option")).toHaveText([/Server's choice \(conversation\)/, "conversation", "conversation-large"]);
  await select.selectOption("conversation-large");
  await expect(page.getByTestId("model-picker")).toContainText("1 chosen for this chat");

  await ask(page, "hello");
  await expect(page.getByTestId("message-conversation").last()).toContainText("Answered by the model this chat chose.", { timeout: 0 });
  expect((await modelRequests()).map((r) => r.model)).toContain("conversation-large");

  // Remembered with the chat: a reload shows the same choice.
  await page.reload();
  await page.getByTestId("model-picker").getByRole("button", { name: /Models/ }).click();
  await expect(page.getByTestId("model-for-conversation")).toHaveValue("conversation-large");
});
