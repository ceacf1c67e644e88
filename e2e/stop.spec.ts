import { expect, test, type Page } from "@playwright/test";
import { ask, openStep, shot, useScenario } from "./support";

/** The stopped step reads as stopped, with what it printed, and the transcript says who stopped the run. */
async function expectStoppedStep(page: Page): Promise<void> {
  const step = page.getByTestId("step-block").filter({ hasText: "A slow step." });
  await expect(step).toHaveAttribute("data-status", "Stopped");
  await expect(step.getByTestId("step-stopped")).toContainText("Stopped by you");
  await expect(step).toContainText("counted 7 coins so far");
  await expect(page.getByTestId("run-stopped")).toContainText("You stopped the run");
  // No spinner stays: nothing in the transcript still says it is running.
  await expect(page.getByRole("log", { name: "Conversation" }).getByText(/Running/)).toHaveCount(0);
}

test("Stop during a long cell stops it, the step shows it was stopped (also after a reload), and the next message works", async ({ page }) => {
  // The first cell waits for a kernel, which on a busy machine (right after the server starts) can take a while.
  test.slow();
  await useScenario("stop-mid-cell.json");
  await page.goto("/");
  await ask(page, "slow please");
  // Stop once the slow cell runs and has printed (so there is partial output to keep). Not the first
  // cell's output: an older step folds when the next one starts, and on a busy machine that can
  // happen before its text is ever looked for.
  const slow = page.getByTestId("step-block").filter({ hasText: "A slow step." });
  await expect(slow).toHaveAttribute("data-status", "Running…", { timeout: 0 });
  await openStep(slow);
  await expect(slow).toContainText("counted 7 coins so far", { timeout: 0 });
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("status-line")).toContainText(/stopped/i);
  await expectStoppedStep(page);
  await shot(page, "stopped");

  await page.reload();
  await expect(page.getByTestId("step-block").first()).toBeVisible();
  // History loads with older steps collapsed; the stopped one is the newest step, so it is open.
  await expectStoppedStep(page);

  await ask(page, "still there?");
  await expect(page.getByTestId("message-conversation").last()).toContainText("ready when you are");
});
