import { expect, test } from "@playwright/test";
import { ask, coinsFile, expectCleanTranscript, modelRequests, openStep, useScenario } from "./support";

/**
 * The count-coins scenario in Chromium with the scripted model speaking like each real server.
 * In this order on purpose: vllm-hermes (calls written as text) moves the roles to the text
 * protocol under auto, and no-tools then runs entirely in text.
 */
for (const dialect of ["openai", "ollama", "vllm-hermes", "no-tools"]) {
  test(`count coins with a model speaking the ${dialect} dialect`, async ({ page }) => {
    await useScenario("count-coins.json", { dialect });
    await page.goto("/");
    await page.getByTestId("file-input").setInputFiles(coinsFile());
    await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
    await ask(page, "How many coins are on the table?");
    const step = page.getByTestId("step-block").first();
    await openStep(step);
    await expect(step.locator("img").first()).toBeVisible();
    await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 60_000 });
    await expectCleanTranscript(page);
    const requests = await modelRequests();
    expect(requests.filter((r) => r.model === "planner" && r.status === 200).length).toBeGreaterThanOrEqual(3);
    if (dialect === "openai" || dialect === "ollama") expect(requests.every((r) => (r.tools?.length ?? 0) > 0)).toBe(true);
    if (dialect === "no-tools") expect(requests.filter((r) => r.status === 200).every((r) => (r.tools?.length ?? 0) === 0)).toBe(true);
  });
}
