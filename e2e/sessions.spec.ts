import { expect, test } from "@playwright/test";
import { ask, useScenario } from "./support";

test("sessions: titled by the first message, renamed, deleted, and a new one started", async ({ page }) => {
  await useScenario("hello.json");
  await page.goto("/");
  await ask(page, "hello there, Argus");
  await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  const sidebar = page.getByTestId("session-sidebar");
  await expect(sidebar.getByRole("button", { name: "hello there, Argus", exact: true })).toBeVisible();

  await sidebar.getByRole("button", { name: /Rename hello there/ }).click();
  await page.getByLabel("New title").fill("Greetings");
  await page.getByLabel("New title").press("Enter");
  await expect(sidebar.getByRole("button", { name: "Greetings", exact: true })).toBeVisible();

  await page.getByTestId("new-session").click();
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await sidebar.getByRole("button", { name: "Greetings", exact: true }).click();
  await expect(page.getByTestId("message-user")).toContainText("hello there, Argus");

  await sidebar.getByRole("button", { name: "Delete Greetings" }).click();
  await sidebar.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(sidebar.getByRole("button", { name: "Greetings", exact: true })).toHaveCount(0);
});
