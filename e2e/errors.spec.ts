import { expect, test } from "@playwright/test";
import { ask, shot, textFile, useScenario } from "./support";

test("a refused upload is explained, before upload and when the server refuses", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(textFile("notes.txt", "not a picture"));
  await expect(page.getByTestId("attachment-chip")).toContainText("not a supported file");
  // Bytes that only pretend to be a PNG pass the browser's check; the server refuses them.
  await page.getByTestId("file-input").setInputFiles(textFile("fake.png", "definitely not a png"));
  await expect(page.getByTestId("attachment-chip").filter({ hasText: "fake.png" })).toContainText(/not a known image or video|not an image/i);
  await shot(page, "refused-upload");
});

test("a model error shows a readable card, and Retry works", async ({ page }) => {
  await useScenario("error-then-ok.json");
  await page.goto("/");
  await ask(page, "hello?");
  const card = page.getByTestId("error-card");
  await expect(card).toContainText(/API key/);
  await shot(page, "model-error");
  await card.getByRole("button", { name: /retry/i }).click();
  await expect(page.getByTestId("message-conversation").last()).toContainText("Recovered");
});

test.describe("without a model", () => {
  test.use({ baseURL: `http://127.0.0.1:${process.env.ARGUS_E2E_NO_MODEL_PORT ?? 3218}` });
  test("the page says exactly what to set, and a message explains itself", async ({ page }) => {
    await page.goto("/");
    const banner = page.getByRole("status").filter({ hasText: "No model is configured" });
    await expect(banner).toContainText("OPENAI_API_KEY");
    // The one command that tries Argus without a model (package.json "try": scripts/try.sh).
    await expect(banner.getByTestId("try-command")).toHaveText("npm run try");
    await ask(page, "anyone there?");
    await expect(page.getByTestId("send-error")).toContainText(/No model is configured/);
    await expect(page.getByTestId("composer-text")).toHaveValue("anyone there?");
    await shot(page, "no-model");
  });
});
