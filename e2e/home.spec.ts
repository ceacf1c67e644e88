import { expect, test } from "@playwright/test";

test("the status page shows Argus's health", async ({ page }) => {
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Argus status" })).toBeVisible();
  await expect(page.getByTestId("health-db")).toHaveText("up");
  await expect(page.getByTestId("health-jupyter")).toHaveText("up");
  await expect(page.getByTestId("health-model")).toHaveText("configured");
  await expect(page.getByTestId("health-isolation")).toHaveText("bubblewrap");
  await expect(page.getByText("No model is configured")).toHaveCount(0);
  await page.screenshot({ path: "test-results/playwright-artifacts/status.png", fullPage: true });
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
