/**
 * Server-renders the browsing agent's chat parts and Browser tab (no DOM
 * library needed) to pin what they show, their safety defaults and the test
 * ids and transcript order the e2e suite relies on.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BrowserTab } from "@/components/preview/browser-tab";
import { PreviewSection } from "@/components/preview/preview-section";
import { browserScreens } from "@/lib/client/browser-screens";
import type { Entry, InteractionEntry } from "@/lib/client/message-parts";
import type { BrowserObservationWire, SafetyPayload } from "@/lib/foundation/protocol/browser-wire";
import type { ChatItem } from "@/lib/foundation/protocol/chat-item";
import { items as i, transcript } from "@/tests/helpers/chat-items";
import { BrowserStepBlock } from "./browser-step-block";
import { InteractionCard } from "./interaction-card";
import { MessageList } from "./message-list";

const html = (el: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(el);
const t = transcript();
const msg = (item: ChatItem) => t.msg(item, { runId: "r", ts: "" });
const noop = () => {};
/** The opening tag of the button with this test id. */
const button = (out: string, id: string) => /<button[^>]*>/.exec(out.slice(out.lastIndexOf("<button", out.indexOf(`data-testid="${id}"`))))![0];

const step = (summary: string, pointer: { x: number; y: number } | null, thinking = "I look for the field.", tool: "computer" | "goto" | "done" = "computer") =>
  msg(i.step(summary, tool, pointer, thinking)) as Entry<"browser_step">;
const seen = (over: Partial<BrowserObservationWire> = {}, media = ["/api/files/shot1"]) =>
  msg(
    i.screen("click(400, 300)", { url: "http://127.0.0.1:8000/form.html", title: "Sign in", pointer: { x: 400, y: 300 }, ...over }, media, "The page shows a form."),
  ) as Entry<"browser_screen">;
const safetyCard = (payload: SafetyPayload | null) => msg(i.safety("Let the browser type into a password field?", payload)) as InteractionEntry;
const payload: SafetyPayload = {
  action: "type(hunter2)",
  url: "http://127.0.0.1:8000/form.html",
  checks: [
    { code: "password_field", message: "It would type into a password field.", source: "policy" },
    { code: "sensitive_domain", message: "The page looks like a bank.", source: "model" },
  ],
  screenshot: "/api/files/shot2",
  pointer: { x: 200, y: 150 },
  viewport: [800, 600],
};

describe("BrowserStepBlock", () => {
  it("shows the action, the page and a thumbnail with the pointer; the thinking stays folded", () => {
    t.reset();
    const out = html(createElement(BrowserStepBlock, { index: 2, step: step("click(400, 300)", { x: 400, y: 300 }), observation: seen() }));
    expect(out).toContain("Browser · step 2");
    expect(out).toContain("click(400, 300)");
    expect(out).toContain("127.0.0.1:8000/form.html");
    expect(out).toContain('src="/api/files/shot1"');
    // 400 of 800 wide, 300 of 600 high: the marker sits in the middle, whatever the image's pixel size.
    expect(out).toContain("left:50%;top:50%");
    expect(out).toContain('aria-expanded="false"');
    expect(out).not.toContain("I look for the field.");
    expect(out).toContain('data-status="Done"');
    expect([...out.matchAll(/data-seq="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1, 2]);
  });

  it("says in words why a step did not work", () => {
    t.reset();
    const out = html(createElement(BrowserStepBlock, { index: 1, step: step("goto(http://blocked.invalid/)", null), observation: seen({ error: "That site is blocked for the browser.", pointer: null }) }));
    expect(out).toContain('data-status="Error"');
    expect(out).toContain("Didn&#x27;t work: That site is blocked for the browser.");
    expect(out).not.toContain("pointer-marker");
  });

  it("says it is waiting when a safety card came after the action, and shows the browser's answer when done", () => {
    t.reset();
    const asked = html(createElement(BrowserStepBlock, { index: 3, step: step("type(hunter2)", null), observation: null, asked: true }));
    expect(asked).toContain("Asked you");
    const done = html(createElement(BrowserStepBlock, { index: 4, step: step("The mug costs 9 €.", null, "", "done"), observation: null, latest: true }));
    expect(done).toContain("Browser · done");
    expect(done).toContain("The mug costs 9 €.");
    expect(done).toContain('data-status="Finished"');
  });
});

describe("safety card", () => {
  it("says what, where and why (and who raised each check), with the pointer on the screenshot", () => {
    t.reset();
    const out = html(createElement(InteractionCard, { message: safetyCard(payload), response: null, pending: true, onAnswer: noop }));
    expect(out).toContain('data-kind="safety"');
    expect(out).toContain("Safety check");
    expect(out).toContain("type(hunter2)");
    expect(out).toContain("127.0.0.1:8000/form.html");
    expect(out).toContain("It would type into a password field.<span class=\"text-muted-foreground\"> — raised by Argus&#x27;s safety policy");
    expect(out).toContain("The page looks like a bank.<span class=\"text-muted-foreground\"> — raised by the browsing model");
    expect(out).toContain('src="/api/files/shot2"');
    expect(out).toContain("left:25%;top:25%");
  });

  it("puts Refuse first and filled, Confirm outlined, both enabled while the run waits", () => {
    t.reset();
    const out = html(createElement(InteractionCard, { message: safetyCard(payload), response: null, pending: true, onAnswer: noop }));
    const refuse = out.indexOf('data-testid="safety-refuse"');
    const confirm = out.indexOf('data-testid="safety-confirm"');
    expect(refuse).toBeGreaterThan(-1);
    expect(confirm).toBeGreaterThan(refuse);
    expect(button(out, "safety-refuse")).toContain("bg-primary");
    expect(button(out, "safety-confirm")).toContain("border-input");
    expect(button(out, "safety-refuse")).not.toContain('disabled=""');
    expect(button(out, "safety-confirm")).not.toContain('disabled=""');
    expect(out).not.toContain("You answered");
  });

  it("shows the answer and is no longer actionable once answered", () => {
    t.reset();
    const card = safetyCard(payload);
    const out = html(createElement(InteractionCard, { message: card, response: msg(i.answer("Refuse")) as Entry<"answer">, pending: false, onAnswer: noop }));
    expect(out).toContain('data-state="answered"');
    expect(out).toContain("You answered: Refuse");
    expect(button(out, "safety-refuse")).toContain('disabled=""');
    expect(button(out, "safety-confirm")).toContain('disabled=""');
    // The answer stays marked on its button.
    expect(button(out, "safety-refuse")).toContain('aria-pressed="true"');
  });

  it("still offers both answers when the payload is unreadable", () => {
    t.reset();
    const out = html(createElement(InteractionCard, { message: safetyCard(null), response: null, pending: true, onAnswer: noop }));
    expect(out).toContain("Let the browser type into a password field?");
    expect(out).toContain('data-testid="safety-refuse"');
    expect(out).toContain('data-testid="safety-confirm"');
  });
});

describe("browsing in the transcript", () => {
  it("renders every message once, in seq order, with a safety card between a step and its outcome", () => {
    t.reset();
    const messages = [
      msg(i.user("sign in to the lab")),
      msg(i.reply("I'll use the browser.")),
      step("goto(http://127.0.0.1:8000/form.html)", null, "Opening.", "goto"),
      seen({ action: "", pointer: null }),
      step("type(hunter2)", null),
      safetyCard(payload),
      msg(i.answer("Refuse")),
      seen({ action: "type(hunter2)", error: "The person refused this step (typing a password). Nothing was done.", pointer: null }, ["/api/files/shot3"]),
      step("I could not sign in.", null, "", "done"),
      msg(i.reply("The browser could not sign in.")),
    ];
    const out = html(createElement(MessageList, { messages, onAnswer: noop, onRetry: noop }));
    expect([...out.matchAll(/data-seq="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(out.match(/data-testid="browser-step"/g)?.length).toBe(4);
    expect(out).toContain("Browser · after your answer");
    expect(out).toContain("You refused this step, so the browser did not do it.");
  });
});

describe("Browser tab", () => {
  it("shows the latest screenshot, its page, the pointer and where it is in the stream", () => {
    t.reset();
    const screens = browserScreens([
      step("goto(x)", null),
      seen({ action: "", pointer: null, title: "Shop", url: "http://127.0.0.1:8000/" }, ["/api/files/a"]),
      step("click(80, 60)", { x: 80, y: 60 }),
      seen({ action: "click(80, 60)", pointer: { x: 80, y: 60 } }, ["/api/files/b"]),
    ]);
    const out = html(createElement(BrowserTab, { screens, policy: "ask", onPolicyChange: async () => true }));
    expect(out).toContain('src="/api/files/b"');
    expect(out).toContain("left:10%;top:10%");
    expect(out).toContain("Sign in");
    expect(out).toContain("http://127.0.0.1:8000/form.html");
    expect(out).toContain("Screenshot 2 of 2");
    expect(out).toContain('aria-label="Previous screenshot"');
    // Following the stream: no way back to the latest is needed.
    expect(out).not.toContain("Show the latest");
    expect(out).toContain('role="switch" aria-checked="true"');
    expect(out).toContain("Ask before risky steps");
    expect(out).toContain("Checks the model itself raises are always asked");
  });

  it("shows the setting off for never", () => {
    const out = html(createElement(BrowserTab, { screens: [], policy: "never", onPolicyChange: async () => true }));
    expect(out).toContain('aria-checked="false"');
    expect(out).toContain("The browser is starting");
  });

  it("appears in the preview only once the browser has worked in the session", () => {
    t.reset();
    const pane = { tab: "media" as const, picked: false, chosenFunction: null, select: noop, showBrowser: noop, chooseFunction: noop, reset: noop };
    const base = { sessionId: "s", uploads: [], polygons: [], onPolygonsChange: noop, notebookVersion: 0, pane };
    const without = html(createElement(PreviewSection, { ...base, messages: [msg(i.user("hi")), msg(i.reply("hello"))] }));
    expect(without).not.toContain('data-testid="tab-browser"');
    expect(without).toContain('data-testid="tab-media"');
    const withBrowser = html(createElement(PreviewSection, { ...base, messages: [msg(i.user("browse")), step("goto(x)", null), seen()] }));
    expect(withBrowser).toContain('data-testid="tab-browser"');
    expect(withBrowser).toContain('data-testid="browser-tab"');
  });
});
