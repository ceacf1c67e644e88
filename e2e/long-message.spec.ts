import { expect, test } from "@playwright/test";
import { useScenario } from "./support";

/**
 * Issue #29, long messages: the 20 000-character limit shows while typing (a counter near it, Send
 * off past it with the reason in words), and a long message that was sent reads collapsed.
 * One page for the whole file.
 */
test("the limit shows while typing, Send says why it is off, and a long message is sent collapsed", async ({ page }) => {
  await useScenario("hello.json");
  await page.goto("/");
  const box = page.getByTestId("composer-text");
  const counter = page.getByTestId("composer-counter");
  const send = page.getByTestId("send");

  // Far from the limit: no counter.
  await box.fill("a short question");
  await expect(counter).toHaveCount(0);

  // Near it: counted, still sendable.
  await box.fill("x".repeat(19_000));
  await expect(counter).toHaveText("19 000 / 20 000");
  await expect(send).toBeEnabled();

  // Past it: Send is off, and the reason is in words beside the counter.
  await box.fill("x".repeat(20_250));
  await expect(counter).toContainText("20 250 / 20 000");
  await expect(page.getByTestId("composer-too-long")).toHaveText("· 250 characters over the limit: shorten the message, or send it in parts.");
  await expect(send).toBeDisabled();
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await box.press("Enter");
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await expect(page.getByTestId("send-error")).toHaveCount(0);

  // A long message that fits is sent, and reads collapsed with Show more.
  const paragraph = (i: number) => `Paragraph ${i}: ${"the coins lie on a dark table, some touching, ".repeat(3)}`;
  const long = Array.from({ length: 40 }, (_, i) => paragraph(i + 1)).join("\n");
  await box.fill(long);
  await expect(counter).toHaveCount(0);
  await box.press("Enter");
  const mine = page.getByTestId("message-user");
  await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  const text = mine.getByTestId("message-text");
  await expect(text).toHaveAttribute("data-collapsed", "true");
  await expect(text).toContainText("Paragraph 1:");
  await expect(text).not.toContainText("Paragraph 40:");
  const more = mine.getByRole("button", { name: /Show more/ });
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await more.click();
  await expect(text).toContainText("Paragraph 40:");
  await expect(mine.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
});
