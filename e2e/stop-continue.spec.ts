import { expect, test } from "@playwright/test";
import { ask, expectCleanTranscript, modelRequests, shot, useScenario } from "./support";

// A planner run with a kernel, then the coder's test kernel: bounded by this budget, not their own
// waits (kernel starts vary under load).
test.setTimeout(360_000);

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
  const warm = page.getByTestId("step-block").filter({ hasText: "kernel is warm" });
  const slow = page.getByTestId("step-block").filter({ hasText: "A slow step." });
  // The first cell's output proves the kernel is up; the slow one has printed before it waits.
  await expect(warm).toHaveAttribute("data-status", "Done", { timeout: 0 });
  await expect(slow).toContainText("counted 7 coins so far", { timeout: 0 });
  await expect(slow).toHaveAttribute("data-status", "Running…");

  await page.getByTestId("stop").click();
  await expect(slow).toHaveAttribute("data-status", "Stopped");
  await expect(slow.getByTestId("step-stopped")).toContainText("Stopped by you");
  await expect(slow).toContainText("counted 7 coins so far");
  await expect(page.getByTestId("run-stopped")).toContainText("You stopped the run");
  const plannerAsksBefore = (await modelRequests()).filter((r) => r.model === "planner").length;
  const continueButton = page.getByTestId("run-actions").getByRole("button", { name: "Continue" });
  await expect(continueButton).toBeVisible();
  await shot(page, "stopped-with-continue");

  await continueButton.click();
  await expect(page.getByTestId("redo-note").filter({ hasText: /Continuing the run/ })).toHaveCount(1);
  await expect(page.getByTestId("message-conversation").last()).toContainText("Done after the stop: 24 coins.", { timeout: 0 });
  await expect(page.getByTestId("status-line")).not.toContainText(/stopped/i);

  // The stopped cell went on: its output now ends with the rest of the count.
  await expect(log).toContainText("all 24 coins counted");
  // One message from the person; the step that finished before the stop is there once, not redone.
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await expect(warm).toHaveCount(1);
  await expect(log.getByText("kernel is warm", { exact: true })).toHaveCount(1);
  // The model was not asked for the finished steps again: only what came after the stopped cell.
  const planner = (await modelRequests()).filter((r) => r.model === "planner");
  expect(planner.length - plannerAsksBefore).toBe(2); // finalize_plan, submit_plan
  // Every event once, in order, and Continue is gone with the stop it answered.
  await expectCleanTranscript(page);
  await expect(page.getByTestId("run-actions").getByRole("button", { name: "Continue" })).toHaveCount(0);
  await shot(page, "continued-after-stop");
});
