import { expect, test, type Page } from "@playwright/test";
import { ask, expectCleanTranscript, modelRequests, openStep, shot, useScenario } from "./support";

// A planner run with a kernel, then the coder's test kernel: bounded by this budget, not their own
// waits (kernel starts vary under load).
test.setTimeout(360_000);

/** Scrolls the conversation (not the page) so `selector` is near its top, for a screenshot. */
async function scrollLogTo(page: Page, selector: string): Promise<void> {
  await page.getByRole("log", { name: "Conversation" }).evaluate((log, sel) => {
    const target = log.querySelector(sel)!;
    log.scrollTop += target.getBoundingClientRect().top - log.getBoundingClientRect().top - 16;
  }, selector);
}

/**
 * Stop, then Continue, as a person does it (issue #29; the server side is
 * tests/integration/agents-continue.test.ts). The slow cell prints, then waits
 * the first time it runs; the person stops it there, reads "Stopped" with what
 * it printed, and presses Continue: the stopped cell is carried out again (it
 * no longer waits) and the run finishes, as the same run under the same
 * message: the message is not posted twice, the cell that finished before the
 * stop is not run again, and the planner is not asked for it again.
 */
test("Stop mid-cell shows the partial output; Continue finishes the same run without redoing finished steps", async ({ page }) => {
  await useScenario("stop-then-continue.json");
  await page.goto("/");
  await ask(page, "Count the coins slowly, please.");
  const log = page.getByRole("log", { name: "Conversation" });
  // Steps are found by their thinking, in their always-shown heading: an older step may arrive
  // folded (when the page renders it together with the next one), its output then unrendered.
  const warm = page.getByTestId("step-block").filter({ hasText: "A quick first look." });
  const slow = page.getByTestId("step-block").filter({ hasText: "A slow step." });
  // The first cell is done (the kernel is up); the slow one has printed before it waits.
  await expect(warm).toHaveAttribute("data-status", "Done", { timeout: 0 });
  await expect(slow).toHaveAttribute("data-status", "Running…", { timeout: 0 });
  await openStep(slow);
  await expect(slow).toContainText("counted 7 coins so far", { timeout: 0 });

  await page.getByTestId("stop").click();
  await expect(slow).toHaveAttribute("data-status", "Stopped");
  await expect(slow.getByTestId("step-stopped")).toContainText("Stopped by you");
  await expect(slow).toContainText("counted 7 coins so far");
  await expect(page.getByTestId("run-stopped")).toContainText("You stopped the run");
  const plannerAsksBefore = (await modelRequests()).filter((r) => r.model === "planner").length;
  const continueButton = page.getByTestId("run-actions").getByRole("button", { name: "Continue" });
  await expect(continueButton).toBeVisible();
  await scrollLogTo(page, '[data-testid="step-stopped"]');
  await shot(page, "stopped-with-continue");

  await continueButton.click();
  await expect(page.getByTestId("redo-note").filter({ hasText: /Continuing the run/ })).toHaveCount(1);
  await expect(page.getByTestId("message-conversation").last()).toContainText("Done after the stop: 24 coins.", { timeout: 0 });
  await expect(page.getByTestId("status-line")).not.toContainText(/stopped/i);

  // The stopped cell was carried out again and went on: the rest of the count is in the chat
  // (as the re-run's output, after "Continuing the run"; the stopped step keeps what it printed).
  await expect(log).toContainText("all 24 coins counted");
  // One message from the person; the step that finished before the stop is there once, not redone.
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await expect(warm).toHaveCount(1);
  await expect(warm).toHaveAttribute("data-status", "Done");
  await openStep(warm);
  await expect(log.getByText("kernel is warm", { exact: true })).toHaveCount(1);
  // The model was not asked for the finished steps again: only what came after the stopped cell.
  const planner = (await modelRequests()).filter((r) => r.model === "planner");
  expect(planner.length - plannerAsksBefore).toBe(2); // finalize_plan, submit_plan
  // Every event once, in order, and Continue is gone with the stop it answered.
  await expectCleanTranscript(page);
  await expect(page.getByTestId("run-actions").getByRole("button", { name: "Continue" })).toHaveCount(0);
  // For the picture: the stop notice, "Continuing the run" and what came after, in the conversation's own scroll.
  await scrollLogTo(page, '[data-testid="run-stopped"]');
  await shot(page, "continued-after-stop");
});
