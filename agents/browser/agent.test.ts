/**
 * The browsing agent driven step by step: scripted replies from the scripted model over HTTP
 * through the real ModelClient and the real Chat Completions engine, hand-made browse
 * observations with screenshots in a real SQLite + blob store read back by the real image
 * preparer; no server and no Chromium. Which browser command each move becomes (scaled from the
 * model's pixels to the page's), the step budget, and what it finishes or gives up with.
 * (The Responses engine's own wire is responses-engine.test.ts's.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageRef, StepResult } from "@/agents/types";
import { readCommand } from "@/lib/engines/computer/browser-command";
import type { SafetyCheck } from "@/lib/foundation/protocol/browser-wire";
import { browseObservation, type SavedImage } from "@/lib/foundation/protocol/event-builders";
import { call, failure, logged, pictureStore, startStepBench, stateNote, type StepBench } from "@/tests/helpers/agent-steps";
import { BrowserAgent, type BrowserInputs } from "./agent";
import { browserEngineFactory } from "./make-engine";

let bench: StepBench;
let pictures: Awaited<ReturnType<typeof pictureStore>>;
let screenshot: ImageRef;
beforeAll(async () => {
  bench = await startStepBench();
  pictures = await pictureStore();
  screenshot = await pictures.add("#ffffff", 1280, 800, "screenshot");
});
afterAll(async () => {
  await bench.close();
  pictures.cleanup();
});

/** A 1280×800 page shown to the model at 640×400: the model's pixels are 2 page pixels. */
const browser = (over: Partial<BrowserInputs> = {}, api: "chat" | "responses" = "chat") =>
  new BrowserAgent({ task: "Find the product photo.", url: "http://shop.test/", maxSteps: 5, viewport: [1280, 800], maxEdge: 640, ...over }, browserEngineFactory(api), pictures.prepare);
const step = (agent: BrowserAgent, signal?: AbortSignal): Promise<StepResult> => agent.step(bench.ctx(signal));

/** What a browsing step led to, as the controller hands it over: the event and its screenshot. */
async function page(agent: BrowserAgent, url: string, note = "", saved: SavedImage[] = [], acknowledged: SafetyCheck[] = []): Promise<void> {
  const event = logged(browseObservation({ text: note, url, title: "Shop", action: "", error: "", screenshotUrl: "/files/shot", pointer: null, viewport: [1280, 800], tabs: 1, saved, acknowledged }));
  await agent.observe(event, { images: [screenshot], viewed: [] });
}

/** Opened, and the start page observed: the next step asks the model. */
async function opened(agent = browser()): Promise<BrowserAgent> {
  await step(agent);
  await page(agent, "http://shop.test/");
  return agent;
}

const computer = (args: Record<string, unknown>, more = {}) => call("browser", "computer", { thinking: "Next.", ...args }, more);
const commandOf = (res: StepResult) => (res.action.action === "browse_interactive" ? readCommand(res.action.args.browser_actions) : null);

describe("browser: opening and moving", () => {
  it("first opens the start page without asking its model", async () => {
    bench.script([computer({ action: "click", x: 1, y: 1 })]);
    expect(await step(browser())).toEqual({ action: { action: "browse", args: { url: "http://shop.test/", thought: "Opening http://shop.test/." } }, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(bench.model.requests).toHaveLength(0);
  });

  it("shows the model the task and the screenshot at its own size, and scales a click to the page's pixels", async () => {
    bench.script([computer({ action: "click", x: 100, y: 50, thinking: "The product link." }, { expect: { contains: ["Task: Find the product photo.", "Screen: http://shop.test/", "640×400"], images: 1, toolNames: ["computer", "goto", "back", "save_image", "done"] } })]);
    const agent = await opened();
    const res = await step(agent);
    expect(res.action).toMatchObject({ action: "browse_interactive", args: { thought: "The product link." } });
    expect(commandOf(res)).toMatchObject({ tool: "computer", action: { type: "click", x: 200, y: 100 }, checks: [], startUrl: "http://shop.test/" });
    expect(res.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
  });

  it("goto, back and save_image become their commands; a save region is scaled too", async () => {
    bench.script([
      call("browser", "goto", { thinking: "", url: "http://shop.test/p/1" }),
      call("browser", "back", { thinking: "" }, { expect: { contains: "Did goto." } }),
      call("browser", "save_image", { thinking: "", name: "product.png", region: { x: 10, y: 20, width: 100, height: 50 } }),
      call("browser", "save_image", { thinking: "", name: "logo.png", selector: "#logo img" }),
    ]);
    const agent = await opened();
    expect(commandOf(await step(agent))).toEqual({ tool: "goto", url: "http://shop.test/p/1", startUrl: "http://shop.test/" });
    await page(agent, "http://shop.test/p/1", "Did goto.");
    expect(commandOf(await step(agent))).toEqual({ tool: "back", startUrl: "http://shop.test/" });
    await page(agent, "http://shop.test/");
    expect(commandOf(await step(agent))).toEqual({ tool: "save_image", name: "product.png", region: { x: 20, y: 40, width: 200, height: 100 }, startUrl: "http://shop.test/" });
    await page(agent, "http://shop.test/");
    expect(commandOf(await step(agent))).toEqual({ tool: "save_image", name: "logo.png", selector: "#logo img", startUrl: "http://shop.test/" });
  });

  it("an action off the screenshot, a region that does not fit, or a malformed action becomes an invalid command saying why", async () => {
    bench.script([
      computer({ action: "click", x: 700, y: 10 }),
      call("browser", "save_image", { thinking: "", name: "big.png", region: { x: 600, y: 0, width: 100, height: 10 } }),
      computer({ action: "teleport" }),
    ]);
    const agent = await opened();
    expect(commandOf(await step(agent))).toMatchObject({ tool: "invalid", error: "x=700 is outside the 640×400 screenshot (x runs from 0 to 639)." });
    await page(agent, "http://shop.test/");
    expect(commandOf(await step(agent))).toMatchObject({ tool: "invalid", error: "The region 600,0 100×10 does not fit in the 640×400 screenshot.", summary: "save_image(big.png)" });
    await page(agent, "http://shop.test/");
    expect(commandOf(await step(agent))).toMatchObject({ tool: "invalid", summary: expect.stringContaining("teleport") });
  });
});

describe("browser: finishing", () => {
  it("done finishes with the answer and every picture saved on the way", async () => {
    const saved = { id: "f-product", name: "product.png", url: "/api/files/f-product" };
    bench.script([call("browser", "save_image", { thinking: "", name: "product.png", selector: "#p img" }), call("browser", "done", { thinking: "", answer: "Saved the product photo as product.png." })]);
    const agent = await opened();
    await step(agent);
    await page(agent, "http://shop.test/", "Saved product.png.", [saved]);
    const done = await step(agent);
    expect(done.action).toEqual({ action: "finish", args: { outputs: { answer: "Saved the product photo as product.png.", images: [saved] }, final_thought: "Saved the product photo as product.png." } });
    if (done.action.action !== "finish") return;
    expect(agent.describeOutputs(done.action.args.outputs)).toBe("Browser: Saved the product photo as product.png.\nSaved pictures (now uploads of this session): product.png (upload id f-product).");
  });

  it("gives up at its step budget, saying where it was, without asking the model again", async () => {
    bench.script([computer({ action: "wait" }), computer({ action: "wait" })]);
    const agent = await opened(browser({ maxSteps: 2 }));
    await step(agent);
    await page(agent, "http://shop.test/a");
    await step(agent);
    await page(agent, "http://shop.test/b");
    const out = await step(agent);
    expect(out.action).toEqual({ action: "reject", args: { outputs: { reason: "The browser used all 2 of its steps without finishing the task. It was at http://shop.test/b.", images: [] }, thought: "Out of steps." } });
    expect(bench.requestsOf("browser")).toHaveLength(2);
  });

  it("a page that could not be shown (an error observation) ends it with the reason", async () => {
    const agent = browser();
    await step(agent);
    await agent.observe(failure("Browsing is not set up here: name a browser model (ARGUS_MODEL_BROWSER) and install Chromium.", "BROWSER_OFF"));
    const out = await step(agent);
    expect(out.action).toEqual({ action: "reject", args: { outputs: { reason: "The browser could not show the page: Browsing is not set up here: name a browser model (ARGUS_MODEL_BROWSER) and install Chromium.", images: [] }, thought: "" } });
    expect(agent.describeOutputs(out.action.action === "reject" ? out.action.args.outputs : {})).toMatch(/^Browser: The browser could not show the page/);
  });

  it("ignores observations that are not a page or an error", async () => {
    bench.script([computer({ action: "wait" })]);
    const agent = await opened();
    await agent.observe(stateNote());
    expect((await step(agent)).action.action).toBe("browse_interactive");
  });
});

describe("browser: over the Responses API's computer tool", () => {
  it("passes the model's safety checks on with the scaled action, and the ones the person confirmed back to the model", async () => {
    const check = { code: "sensitive_domain", message: "This page asks for a password." };
    bench.script([
      { model: "browser", computerCall: { action: { type: "click", button: "left", x: 100, y: 50 }, pendingSafetyChecks: [check] }, expect: { images: 1 } },
      { model: "browser", text: "Logged in.", expect: { acknowledged: ["sensitive_domain"], currentUrl: "http://shop.test/account" } },
    ]);
    const agent = await opened(browser({}, "responses"));
    const click = await step(agent);
    const confirmed: SafetyCheck = { ...check, source: "model" };
    expect(commandOf(click)).toMatchObject({ tool: "computer", action: { type: "click", x: 200, y: 100 }, checks: [confirmed] });
    await page(agent, "http://shop.test/account", "Did click(200, 100).", [], [confirmed]);
    expect((await step(agent)).action).toMatchObject({ action: "finish", args: { outputs: { answer: "Logged in." } } });
    expect(bench.model.requests.map((r) => [r.api, r.status])).toEqual([["responses", 200], ["responses", 200]]);
  });
});

describe("browser: model habits and stop", () => {
  it("a chord written as \"ctrl+a\" is read as a list of keys", async () => {
    bench.script([computer({ action: "keypress", keys: "ctrl+a" })]);
    const agent = await opened();
    expect(commandOf(await step(agent))).toMatchObject({ tool: "computer", action: { type: "keypress", keys: ["ctrl", "a"] } });
  });

  it("loose JSON arguments and <think> text are undone: the move is made and the thinking is its thought", async () => {
    bench.script([call("browser", "goto", { url: "http://shop.test/p/2" }, { argumentsAs: "loose", reasoning: "The second product.", thinkInText: "think" })]);
    const agent = await opened();
    const res = await step(agent);
    expect(res.action).toMatchObject({ action: "browse_interactive", args: { thought: "The second product." } });
    expect(commandOf(res)).toMatchObject({ tool: "goto", url: "http://shop.test/p/2" });
  });

  it("a cancelled step rejects as cancelled", async () => {
    bench.script([computer({ action: "wait" })]);
    const agent = await opened();
    const stop = new AbortController();
    stop.abort();
    await expect(step(agent, stop.signal)).rejects.toMatchObject({ kind: "cancelled" });
  });
});
