import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { ask, coinsFile, useScenario } from "./support";

/**
 * Attacks from another page of the same host, in real Chromium: a page on another port of
 * 127.0.0.1 (cookies are not kept apart by port) plants Argus's browser cookie, or frames Argus.
 * The Content-Security-Policy is in force here (no bypassCSP), and the app must work under it.
 */

/** A page server on a free port of this host: the attacker's. `pages` maps a path to its HTML. */
async function attackerSite(pages: Record<string, string>): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const html = pages[(req.url ?? "/").split("?")[0]!];
    res.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    res.end(html ?? "not here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const closeSite = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const argusBase = () => test.info().project.use.baseURL!;

/** The page plants `argus_browser=<value>` on path /api, so it is sent before Argus's own. */
const plantingPage = (value: string) =>
  `<!doctype html><title>loading</title><script>document.cookie = "argus_browser=${value}; path=/api"; document.title = "planted";</script>`;

async function sessionsOf(page: Page): Promise<{ id: string; title: string | null }[]> {
  return page.evaluate(async () => {
    const res = await fetch("/api/sessions");
    return ((await res.json()) as { sessions: { id: string; title: string | null }[] }).sessions;
  });
}

/** The attacker, in a browser of their own, holding the planted value as Argus's cookie. */
async function attackerReads(browser: Browser, planted: string, victimSessionId: string) {
  const context = await browser.newContext();
  try {
    await context.addCookies([{ name: "argus_browser", value: planted, domain: "127.0.0.1", path: "/" }]);
    const list = await context.request.get(`${argusBase()}/api/sessions`);
    const chat = await context.request.get(`${argusBase()}/api/sessions/${victimSessionId}`);
    return { listed: ((await list.json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id), chatStatus: chat.status(), chatBody: await chat.text() };
  } finally {
    await context.close();
  }
}

/** The person visits the attacker's page, then starts a chat in Argus; returns its id. */
async function victimStartsChat(context: BrowserContext, attackerOrigin: string, planted: string): Promise<{ page: Page; sessionId: string }> {
  const page = await context.newPage();
  await page.goto(`${attackerOrigin}/plant`);
  await expect(page).toHaveTitle("planted");
  expect((await context.cookies(`${argusBase()}/api/sessions`)).map((c) => c.value)).toContain(planted);
  await useScenario("hello.json");
  await page.goto("/");
  await ask(page, "my private question");
  // The question is stored (it titles the chat) before the attacker looks; the reply may come later.
  await expect.poll(async () => (await sessionsOf(page)).filter((s) => s.title === "my private question").length).toBe(1);
  const mine = (await sessionsOf(page)).find((s) => s.title === "my private question")!;
  return { page, sessionId: mine.id };
}

test("a cookie planted by a page on another port of this host reads nothing of the person's chats", async ({ browser }) => {
  const site = await attackerSite({ "/plant": plantingPage("KNOWN") });
  const victim = await browser.newContext({ baseURL: argusBase() });
  try {
    const { page, sessionId } = await victimStartsChat(victim, site.origin, "KNOWN");
    const stolen = await attackerReads(browser, "KNOWN", sessionId);
    expect(stolen.listed).toEqual([]);
    expect(stolen.chatStatus).toBe(403);
    expect(stolen.chatBody).not.toContain("my private question");
    // The person's chat works (its socket opens with Argus's own cookie)...
    await expect(page.getByTestId("message-conversation")).toContainText("Hello");
    // ...Argus deleted the planted cookie, and the person keeps their chat after a reload.
    expect((await victim.cookies(`${argusBase()}/api/sessions`)).map((c) => c.value)).not.toContain("KNOWN");
    await page.reload();
    await expect(page.getByTestId("session-sidebar").getByRole("button", { name: "my private question", exact: true })).toBeVisible();
  } finally {
    await victim.close();
    await closeSite(site.server);
  }
});

test("a cookie the server issued to the attacker, planted in the person's browser, reads nothing either", async ({ browser }) => {
  // The attacker gets a genuine identity from Argus (by starting a chat of their own)...
  const own = await browser.newContext({ baseURL: argusBase() });
  const made = await own.request.post(`${argusBase()}/api/sessions`);
  expect(made.status()).toBe(201);
  const attackerChat = ((await made.json()) as { id: string }).id;
  const issued = (await own.storageState()).cookies.find((c) => c.name === "argus_browser")!.value;
  await own.close();
  // ...and plants it in the person's browser.
  const site = await attackerSite({ "/plant": plantingPage(issued) });
  const victim = await browser.newContext({ baseURL: argusBase() });
  try {
    const { page, sessionId } = await victimStartsChat(victim, site.origin, issued);
    const stolen = await attackerReads(browser, issued, sessionId);
    // The issued value lists the attacker's own chat only (the person's page held no proof for it, so nothing moved).
    expect(stolen.listed).toEqual([attackerChat]);
    expect(stolen.chatStatus).toBe(403);
    expect(stolen.chatBody).not.toContain("my private question");
    await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  } finally {
    await victim.close();
    await closeSite(site.server);
  }
});

test("a planted server-issued cookie and a link to the planter's chat: the person's page cannot write there", async ({ browser }) => {
  // The attacker starts a chat of their own and keeps its bearer token.
  const own = await browser.newContext({ baseURL: argusBase() });
  const made = await own.request.post(`${argusBase()}/api/sessions`);
  expect(made.status()).toBe(201);
  const { id: attackerChat, token } = (await made.json()) as { id: string; token: string };
  const issued = (await own.storageState()).cookies.find((c) => c.name === "argus_browser")!.value;
  await own.close();
  // The planting page puts the value on path / (replacing nothing: the person has no chat yet), then links to the chat.
  const site = await attackerSite({
    "/plant": `<!doctype html><title>loading</title><script>document.cookie = "argus_browser=${issued}; path=/"; document.title = "planted";</script>`,
  });
  const victim = await browser.newContext({ baseURL: argusBase() });
  try {
    const page = await victim.newPage();
    await page.goto(`${site.origin}/plant`);
    await expect(page).toHaveTitle("planted");
    await page.goto(`/?s=${attackerChat}`);
    // Argus's page holds no proof for the planted value: the chat does not open for it.
    await expect(page.getByTestId("chat-unavailable")).toBeVisible();
    const rename = await page.evaluate(async (id) => {
      const res = await fetch(`/api/sessions/${id}`, { method: "PATCH", headers: { "content-type": "application/json", "x-argus-browser-proof": "" }, body: JSON.stringify({ title: "my private question" }) });
      return res.status;
    }, attackerChat);
    expect(rename).toBe(401);
    const seen = await (await fetch(`${argusBase()}/api/sessions/${attackerChat}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect((seen as { title: string | null }).title).toBeNull();
  } finally {
    await victim.close();
    await closeSite(site.server);
  }
});

test("no page of another origin can frame Argus (clickjacking)", async ({ page }) => {
  const site = await attackerSite({
    "/frame": `<!doctype html><iframe id="argus" src="${argusBase()}/" onload="window.argusLoaded = true"></iframe>
      <iframe id="own" src="/inner" onload="window.ownLoaded = true"></iframe>`,
    "/inner": "<!doctype html><p id=inner>framed fine</p>",
  });
  try {
    const refusals: string[] = [];
    page.on("console", (m) => {
      if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
    });
    await page.goto(`${site.origin}/frame`);
    // Both frames finished loading: the attacker's own page shows (the control), Argus does not.
    await page.waitForFunction(() => (window as unknown as { argusLoaded?: boolean; ownLoaded?: boolean }).argusLoaded && (window as unknown as { ownLoaded?: boolean }).ownLoaded);
    await expect(page.frameLocator("#own").locator("#inner")).toHaveText("framed fine");
    await expect(page.frameLocator("#argus").getByTestId("composer-text")).toHaveCount(0);
    const argusFrame = page.frames().find((f) => f !== page.mainFrame() && !f.url().endsWith("/inner"))!;
    expect(await argusFrame.evaluate(() => document.body?.innerText ?? "").catch(() => "")).not.toMatch(/Argus/);
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
  } finally {
    await closeSite(site.server);
  }
});

test("the app runs under its Content-Security-Policy, which refuses an injected handler", async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await useScenario("hello.json");
  const doc = await page.goto("/");
  const policy = doc!.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[\w+/=]+' 'strict-dynamic'/);
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(doc!.headers()["x-content-type-options"]).toBe("nosniff");
  expect(doc!.headers()["referrer-policy"]).toBe("no-referrer");
  // An upload (its preview, the media panel's picture) and a chat, all under the policy.
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await ask(page, "hello under a strict policy");
  await expect(page.getByTestId("message-conversation")).toContainText("Hello");
  await expect(page.locator("img[src^='/api/files/']").first()).toBeVisible();
  // Visible is laid out, not yet loaded: wait for the picture itself (a CSP refusal never loads it).
  await expect.poll(() => page.locator("img[src^='/api/files/']").first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Argus status" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);

  // Markup that slipped into the page could not run a handler.
  await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<img src="/no-such-picture.png" onerror="window.pwned = 1">'));
  await page.waitForFunction(() => (window as unknown as { violations: string[] }).violations.length > 0);
  expect(await page.evaluate(() => (window as unknown as { violations: string[]; pwned?: number }).violations[0])).toMatch(/^script-src/);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
});
