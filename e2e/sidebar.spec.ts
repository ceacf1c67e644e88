import { expect, test } from "@playwright/test";
import { ask, coinsFile, useScenario } from "./support";

/**
 * Issue #29, the sidebar: a chat is listed once it is used (not when a picture was merely
 * attached), titled by its whole first question (all of it on hover), with its date, under a day
 * heading, and found by the search box. One page for the whole file.
 */
test("chats listed once used, titled by the first question, dated, grouped by day and searchable", async ({ page }) => {
  await page.goto("/");
  const sidebar = page.getByTestId("session-sidebar");
  const rows = sidebar.getByTestId("session-row");

  // Attaching a picture makes a chat on the server, but an unused one is not listed.
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await expect(page).toHaveURL(/\?s=/);
  await expect(sidebar).toContainText("No chats yet.");
  await expect(rows).toHaveCount(0);

  // Asked: listed under Today, titled by the whole first question, with the time.
  await useScenario("hello.json");
  const question = "hello there, Argus: how many of the coins on this dark table are touching one another?";
  await ask(page, question);
  await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  await expect(rows).toHaveCount(1);
  const chat = sidebar.getByRole("button", { name: question, exact: true });
  await expect(chat).toHaveAttribute("title", question);
  await expect(sidebar.getByTestId("session-group")).toHaveAttribute("aria-label", "Today");
  await expect(rows.first().getByTestId("session-date")).toHaveText(/^\d\d:\d\d$/);

  // Two more chats (made over the API, titled), then the search box narrows the list by title.
  await page.evaluate(async () => {
    for (const title of ["Count the red cells", "Read the café menu"]) {
      // With the page's proof, as its own client sends it (lib/client/browser-proof.ts): the chats so far come along.
        const proof = localStorage.getItem("argus.browserProof") ?? "";
        const res = await fetch("/api/sessions", { method: "POST", headers: { "content-type": "application/json", "x-argus-browser-proof": proof }, body: JSON.stringify({ title }) });
      if (!res.ok) throw new Error(await res.text());
      // As the page's own client does (lib/client/api.ts): the new cookie's proof is kept for its requests.
      localStorage.setItem("argus.browserProof", ((await res.json()) as { browserProof: string }).browserProof);
    }
  });
  await page.reload();
  await expect(rows).toHaveCount(3);
  const search = sidebar.getByRole("searchbox", { name: "Search chats" });
  await search.fill("CAFE");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Read the café menu");
  await search.fill("coins touching");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(question);
  await search.fill("zebra");
  await expect(rows).toHaveCount(0);
  await expect(sidebar.getByRole("status")).toHaveText("No chat titles match “zebra”.");
  await search.fill("");
  await expect(rows).toHaveCount(3);

  // A day later, the same chats are yesterday's.
  await page.clock.setFixedTime(new Date(Date.now() + 24 * 3600_000));
  await page.reload();
  await expect(sidebar.getByTestId("session-group")).toHaveAttribute("aria-label", "Yesterday");
  await expect(sidebar.getByTestId("session-date")).toHaveText(["Yesterday", "Yesterday", "Yesterday"]);
});
