import { expect, test } from "@playwright/test";
import { ask, coinsFile, shot, useScenario } from "./support";

// Three tools run on the photo, then the chosen tool's cell and the coder's tests in fresh kernels:
// 10-50 s alone, up to 72 s beside a benchmark on two cores, close to the default 90 s.
test.slow();

test("tool review: the candidates' boxes over the photo, a live confidence slider, and the chosen tool drives the next cell", async ({ page }) => {
  await useScenario("tool-review.json");
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await ask(page, "count the coins");

  const card = page.getByTestId("tool-review-card");
  // Bounded by the test's own budget (timeout 0): the planner's notebook may start cold on a busy machine.
  await expect(card).toBeVisible({ timeout: 0 });
  // It opens on the judge's pick (count_objects) at the judge's threshold, not on the first tab at 0.05.
  await expect(card.getByRole("tab", { name: /count_objects/ })).toHaveAttribute("aria-selected", "true");
  await expect(card.getByTestId("judge-pick")).toBeVisible();
  await expect(card.getByRole("slider")).toHaveValue("0.4");
  await card.getByRole("tab", { name: /detect_circles/ }).click();
  // At the lowest threshold every weak, overlapping circle is drawn; no label covers another.
  await card.getByRole("slider").fill("0.05");
  const boxes = card.getByTestId("box-count");
  await expect(boxes).toHaveText(/Showing (\d+) of \1 boxes/);
  await expect(card.getByTestId("detection-box").first()).toBeVisible();
  const labels = await card.getByTestId("box-label").evaluateAll((spans) => spans.map((s) => s.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
  expect(labels.length).toBeGreaterThan(0);
  const stacked = labels.flatMap((a, i) => labels.slice(i + 1).filter((b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h).map((b) => [a, b]));
  expect(stacked).toEqual([]);
  const before = await boxes.textContent();
  await shot(page, "tool-review-low-threshold");
  // Raising the threshold filters boxes live, before anything is sent.
  await card.getByRole("slider").fill("0.99");
  await expect(boxes).not.toHaveText(before ?? "");
  await shot(page, "tool-review-threshold-high");
  await card.getByRole("slider").fill("0.5");
  await expect(card.getByRole("slider")).toHaveValue("0.5");
  await card.getByRole("button", { name: "Use this tool" }).click();

  // The chosen tool's cell, then the coder's test in a fresh kernel: waited on by their results,
  // bounded only by the test's own budget (timeout 0), since kernel starts on a busy machine vary.
  await expect(page.getByTestId("message-observation").filter({ hasText: "detect_circles 0.5" })).toHaveCount(1, { timeout: 0 });
  await expect(page.getByTestId("message-conversation").last()).toContainText("Counted with the tool you picked", { timeout: 0 });
});
