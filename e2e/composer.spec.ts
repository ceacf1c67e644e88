import { mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { coinsFile, FIXTURES, shot } from "./support";

test("images arrive by paste and by drag-and-drop, as removable thumbnails", async ({ page }) => {
  await page.goto("/");
  const png = readFileSync(coinsFile()).toString("base64");
  // Paste: a ClipboardEvent carrying the file, as the browser makes when a person pastes a picture.
  await page.getByTestId("composer-text").evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, png);
  await expect(page.getByTestId("attachment-chip").filter({ hasText: "pasted.png" })).toContainText("Ready");
  // Drop onto the composer.
  const dataTransfer = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
    return data;
  }, png);
  await page.getByRole("form", { name: "Message" }).dispatchEvent("drop", { dataTransfer });
  await expect(page.getByTestId("attachment-chip").filter({ hasText: "dropped.png" })).toContainText("Ready");
  await shot(page, "attachments");
  await page.getByRole("button", { name: "Remove pasted.png" }).click();
  await expect(page.getByTestId("attachment-chip")).toHaveCount(1);
});

test("Shift+Enter makes a new line and Enter sends", async ({ page }) => {
  await page.goto("/");
  const box = page.getByTestId("composer-text");
  await box.fill("first line");
  await box.press("Shift+Enter");
  await box.pressSequentially("second line");
  await expect(box).toHaveValue("first line\nsecond line");
});

test("a file over the size limit is refused before upload", async ({ page }) => {
  await page.goto("/");
  mkdirSync(FIXTURES, { recursive: true });
  const file = path.join(FIXTURES, "huge.png");
  writeFileSync(file, "");
  truncateSync(file, 51 * 1024 * 1024);
  await page.getByTestId("file-input").setInputFiles(file);
  await expect(page.getByTestId("attachment-chip")).toContainText(/limit is 50\.0 MB/);
});
