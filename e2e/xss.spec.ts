import { expect, test, type Page } from "@playwright/test";
import { ask, expectCleanTranscript, shot, useScenario, openStep } from "./support";

/**
 * Model and kernel output is untrusted. The xss scenario's reply, planner
 * cell (stdout, stderr, value), plan and final code are full of markup that
 * would set `window.__pwned` if it ever became HTML. It must show as text.
 *
 * Any Content-Security-Policy the app sends is bypassed for this test
 * (`bypassCSP`), and a control proves that injected handlers and javascript:
 * links *would* run on this page: the defence under test is React's escaping
 * and the link filter, not a header.
 */

const QUESTION = 'Is this safe? <img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script>';
test.use({ bypassCSP: true });

const pwned = (page: Page) => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);

test("hostile model and kernel output renders as text and never runs", async ({ page }) => {
  await useScenario("xss.json");
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  const doc = await page.goto("/");
  const csp = doc?.headers()["content-security-policy"] ?? null;
  await ask(page, QUESTION);

  const log = page.getByRole("log", { name: "Conversation" });
  const conversation = page.getByTestId("message-conversation");
  // The run includes the coder's test in a fresh kernel, whose start takes what it takes on a busy
  // machine: wait on the answer itself, bounded only by the test's own budget (timeout 0).
  await expect(conversation.last()).toContainText("Done: the function returns markup", { timeout: 0 });

  // The person's own message, as typed.
  await expect(page.getByTestId("message-user").first()).toContainText(QUESTION);

  // The conversation reply: raw HTML shown as text, javascript: links not links.
  const reply = conversation.first();
  await expect(reply).toContainText('<img src=x onerror="window.__pwned=1">');
  await expect(reply).toContainText("<script>window.__pwned=1</script>");
  await expect(reply).toContainText("<svg onload=window.__pwned=1></svg>");
  await expect(reply).toContainText('<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>');
  await expect(reply.getByText("click", { exact: true })).toBeVisible();

  // The planner's cell: stdout, stderr and value as text.
  const plannerStep = page.locator('[data-testid="step-block"][data-agent="planner"]').first();
  await openStep(plannerStep);
  await expect(plannerStep).toContainText("<img src=x onerror=window.__pwned=1>");
  await expect(plannerStep).toContainText("<script>window.__pwned=1</script>");
  await expect(plannerStep).toContainText('<iframe src="javascript:window.__pwned=1"></iframe>');
  await expect(plannerStep).toContainText("'<svg onload=window.__pwned=1>'");
  await expect(plannerStep).toContainText("<b onmouseover=window.__pwned=1>bold</b>");

  // The plan, the final code (whose markup tries to close the <final_code> tag) and its test run.
  await expect(page.getByTestId("plan-block")).toContainText("Return the markup <img src=x onerror=window.__pwned=1> as a string.");
  await expect(page.getByTestId("plan-block")).toContainText("[click](javascript:window.__pwned=1)");
  const finalCode = page.getByTestId("final-code-block");
  await expect(finalCode).toContainText("MARKUP = '</final_code><script>window.__pwned=1</script><img src=x onerror=window.__pwned=1>'");
  await expect(finalCode).toContainText("def hostile():");
  await expect(page.locator('[data-testid="step-block"][data-agent="coder"]').last()).toContainText("</final_code><script>window.__pwned=1</script><img src=x onerror=window.__pwned=1>");
  await expectCleanTranscript(page);
  await shot(page, "xss-transcript");

  // No element was made from the markup: not in the transcript, not anywhere on the page.
  await expect(log.locator("script")).toHaveCount(0);
  await expect(log.locator("iframe, object, embed, svg[onload], img[src='x']")).toHaveCount(0);
  await expect(page.locator("img[src='x'], iframe, [onerror], [onload], [onmouseover], [srcdoc]")).toHaveCount(0);
  await expect(page.locator("a[href^='javascript:' i], a[href^='data:' i], a[href*='script:' i]")).toHaveCount(0);
  expect(await log.locator("a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).protocol).filter((p) => !["http:", "https:", "mailto:"].includes(p) && p !== location.protocol))).toEqual([]);

  // Clicking what would have been the javascript: links does nothing.
  const url = page.url();
  await reply.getByText("click", { exact: true }).click();
  await reply.getByText("also", { exact: true }).click();
  await conversation.last().getByText("click here", { exact: true }).click();
  await expect(page).toHaveURL(url);

  // The preview pane shows the same code and cell as text too.
  await page.getByTestId("tab-code").click();
  const preview = page.getByTestId("preview-section");
  await expect(preview).toContainText("</final_code><script>window.__pwned=1</script>");
  await page.getByTestId("tab-notebook").click();
  await expect(page.getByTestId("notebook-cell").first()).toContainText("<img src=x onerror=window.__pwned=1>");
  await expect(preview.locator("script, iframe, img[src='x'], [onerror], [onload]")).toHaveCount(0);
  await shot(page, "xss-preview");

  // Control: on this very page, markup that did become HTML would run at once,
  // and a javascript: link would run when clicked (no CSP stands in the way).
  await page.evaluate(() => {
    const box = document.createElement("div");
    box.id = "xss-control";
    box.innerHTML = '<img src=x onerror="window.__control=1"><a id="xss-control-link" href="javascript:window.__controlLink=1">control</a>';
    document.body.append(box);
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __control?: number }).__control)).toBe(1);
  await page.locator("#xss-control-link").click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __controlLink?: number }).__controlLink)).toBe(1);
  await page.evaluate(() => document.getElementById("xss-control")?.remove());

  // By now every injected handler would have fired: none did.
  expect(await pwned(page)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(pageErrors.filter((m) => /pwned/.test(m))).toEqual([]);
  test.info().annotations.push({ type: "csp", description: csp ?? "none sent by the app" });
});
