import { expect, test } from "@playwright/test";
import { chatWaitingForKernel } from "./kernel-wait";
import { shot } from "./support";

// Starts a server of its own (chatWaitingForKernel) besides the run: 30 s and more on a busy machine.
test.setTimeout(300_000);

test("a run waiting for its notebook to start says so in its step, then runs its code there", async ({ browser }) => {
  const { page, stop } = await chatWaitingForKernel(browser);
  try {
    const step = page.getByTestId("step-block").first();
    // Not a bare "Running the code…": what it waits for, and for how long so far.
    const note = step.getByTestId("wait-note");
    await expect(note).toHaveAttribute("data-wait", "notebook_start", { timeout: 0 });
    await expect(note).toHaveText(/^Starting a notebook( \(\d+ s so far\))?…$/);
    await shot(page, "wait-starting-notebook");
    // The wait ends once the kernel is there, and the cell runs in it.
    await expect(step.getByTestId("message-observation")).toContainText("kernel ready", { timeout: 0 });
    await expect(note).toHaveCount(0);
  } finally {
    await stop();
  }
});
