import { expect, test } from "@playwright/test";
import { ask, coinsFile, expectCleanTranscript, shot, useScenario } from "./support";

interface Seen {
  agent: string;
  step: string;
  code: boolean;
  text: string;
  /** Transcript entries on the page at that moment. */
  messages: number;
}

/**
 * Every state of the live draft bubble the page ever rendered, recorded by a MutationObserver
 * (it runs right after each DOM commit, so a bubble that lives for one frame is still seen).
 */
async function recordDrafts(page: import("@playwright/test").Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: Seen[] = [];
    (window as unknown as { __drafts: Seen[] }).__drafts = seen;
    new MutationObserver(() => {
      const el = document.querySelector<HTMLElement>('[data-testid="live-draft"]');
      if (!el) return;
      const entry = {
        agent: el.dataset.agent ?? "",
        step: el.dataset.step ?? "",
        code: el.querySelector('[data-testid="live-draft-code"] figure') !== null,
        text: (el.textContent ?? "").slice(0, 2000),
        messages: document.querySelectorAll("[data-seq]").length,
      };
      const last = seen.at(-1);
      if (!last || last.text !== entry.text || last.step !== entry.step) seen.push(entry);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

test("the steps stream in as live drafts, then the persisted messages replace them", async ({ page }) => {
  await useScenario("count-coins.json");
  await recordDrafts(page);
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  // The upload made the session; its socket must be in the room before the first draft is sent.
  await expect(page.getByTestId("status-line")).toHaveAttribute("data-tone", "idle");
  await ask(page, "How many coins are on the table?");

  await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 60_000 });
  await expect(page.getByTestId("status-line")).toContainText(/finished|done|ready/i);
  // The run is over: no bubble is left, and the transcript holds each message once.
  await expect(page.getByTestId("live-draft")).toHaveCount(0);
  await expectCleanTranscript(page);
  await shot(page, "live-draft-after");

  const seen = await page.evaluate(() => (window as unknown as { __drafts: Seen[] }).__drafts);
  // The planner's cell was on screen as it was written: its thinking and the code, in the code styling.
  const cell = seen.filter((s) => s.agent === "planner" && s.code && s.text.startsWith("Planner · writing code"));
  expect(cell.length, JSON.stringify(seen.map((s) => [s.agent, s.step, s.text.slice(0, 40)]))).toBeGreaterThan(0);
  expect(cell.at(-1)!.text).toContain("Segment the coins and look at the result.");
  expect(cell.at(-1)!.text).toContain("view_image(overlay_bounding_boxes(img, boxes)");
  // The plan, the coder's function, and both of the conversation's replies streamed too.
  expect(seen.some((s) => s.agent === "planner" && s.text.startsWith("Planner · writing the plan") && s.text.includes("24 coins"))).toBe(true);
  expect(seen.some((s) => s.agent === "coder" && s.text.includes("def count_coins"))).toBe(true);
  expect(seen.some((s) => s.agent === "conversation" && s.text.includes("Let me count them in your photo."))).toBe(true);
  expect(seen.some((s) => s.agent === "conversation" && s.text.includes("There are 24 coins"))).toBe(true);
  // Each bubble appeared before its step joined the transcript (the list only grew afterwards).
  const firstReply = seen.find((s) => s.agent === "conversation")!;
  const finalReply = seen.findLast((s) => s.agent === "conversation")!;
  expect(firstReply.messages).toBeLessThan(finalReply.messages);
  expect(await page.locator("[data-seq]").count()).toBeGreaterThan(finalReply.messages);
});

test("a slowly written reply is on screen while it is written, then becomes the message", async ({ page }) => {
  await useScenario("live-draft.json");
  await page.goto("/");
  // A first exchange makes the session, so its socket is in the room before the slow reply starts.
  await ask(page, "Hi");
  await expect(page.getByTestId("message-conversation")).toContainText("Hello! Ask me anything.");
  await ask(page, "Tell me slowly");

  // The bubble shows the reply as Markdown while the model is still writing it.
  const draft = page.getByTestId("live-draft");
  await expect(draft).toBeVisible();
  await expect(draft).toHaveAttribute("data-agent", "conversation");
  await expect(draft.getByTestId("live-draft-response").locator("strong")).toHaveText("slow answer");
  // Read in one go: while the bubble is there, the reply is not in the transcript yet.
  const during = await page.evaluate(() => ({
    partial: document.querySelector('[data-testid="live-draft-response"]')?.textContent ?? null,
    replies: document.querySelectorAll('[data-testid="message-conversation"]').length,
  }));
  await shot(page, "live-draft-writing");

  // Then the persisted message replaces it, whole, once.
  const message = page.getByTestId("message-conversation");
  await expect(message.last()).toContainText("which makes them easy to segment.");
  await expect(message).toHaveCount(2);
  await expect(draft).toHaveCount(0);
  await expectCleanTranscript(page);
  // What was on screen mid-run was the start of the very reply that was persisted.
  if (during.partial !== null) {
    expect(during.replies).toBe(1);
    expect(await message.last().textContent()).toContain(during.partial.trim());
  }
});
