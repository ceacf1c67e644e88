import { expect, test } from "@playwright/test";
import { ARTIFACTS, ask, useScenario } from "./support";

test("the status page shows Argus's health", async ({ page }) => {
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Argus status" })).toBeVisible();
  await expect(page.getByTestId("health-db")).toHaveText("up");
  await expect(page.getByTestId("health-jupyter")).toHaveText("up");
  await expect(page.getByTestId("health-model")).toHaveText("configured");
  await expect(page.getByTestId("health-isolation")).toHaveText("bubblewrap");
  await expect(page.getByText("No model is configured")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/status.png`, fullPage: true });
});

test("Check models agrees with the health list above it: a role health calls ok is not down", async ({ page }) => {
  await useScenario("hello.json");
  // A first answer makes every role's health "ok" (health reports each role's last call).
  await page.goto("/");
  await ask(page, "Hello there");
  await expect(page.getByTestId("message-conversation").last()).toContainText("Hello", { timeout: 60_000 });
  await page.goto("/status");
  await expect(page.getByTestId("model-health-conversation")).toHaveText("ok");
  await page.getByTestId("check-models").click();
  const report = page.getByTestId("model-check-report");
  await expect(report).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: `${ARTIFACTS}/status-check-models.png`, fullPage: true });
  const rows = ((await report.textContent()) ?? "").split("\n").filter((line) => /^(conversation|planner|coder|vqa|judge)\s/.test(line));
  expect(rows).toHaveLength(5);
  for (const row of rows) expect(row, row).not.toMatch(/\bdown$/);
  await expect(report).toContainText("Every role can work.");
});

test("a session created from the page's origin opens with the browser cookie", async ({ page }) => {
  await page.goto("/");
  const created = await page.evaluate(async () => {
    const res = await fetch("/api/sessions", { method: "POST" });
    return { status: res.status, body: (await res.json()) as { id: string; browserProof: string } };
  });
  expect(created.status).toBe(201);
  const view = await page.evaluate(async (id) => {
    const res = await fetch(`/api/sessions/${id}`);
    return { status: res.status, body: (await res.json()) as { id: string; messages: unknown[] } };
  }, created.body.id);
  expect(view.status).toBe(200);
  expect(view.body).toMatchObject({ id: created.body.id, messages: [] });
  // A write by cookie carries the proof the page was handed with it (lib/server/browser-proof.ts).
  const rename = await page.evaluate(async ({ id, proof }) => {
    const res = await fetch(`/api/sessions/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", "x-argus-browser-proof": proof },
      body: JSON.stringify({ title: "From the page" }),
    });
    return res.status;
  }, { id: created.body.id, proof: created.body.browserProof });
  expect(rename).toBe(200);
});
