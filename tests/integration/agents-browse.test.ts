/**
 * The browsing agent end to end: the scripted model (browser role) drives a real Chromium on
 * the lab site through a real Argus, with real kernels for the vision work that follows. The
 * browser renders at device scale 2 and the model sees an 800 px screen (browse-run.ts), so
 * every click also proves the coordinate scaling.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserActionWire, BrowserObservationWire, SafetyPayload } from "@/lib/foundation/protocol/browser-wire";
import { scenarioPath } from "@/tests/helpers/agent-run";
import { answerSafety, browserTurn, m, MAX_STEPS, startBrowse, startBrowseWorld, tagged, turn, type BrowseWorld, type TurnIn } from "@/tests/helpers/browse-run";

let world: BrowseWorld;
beforeAll(async () => {
  world = await startBrowseWorld();
});
afterAll(async () => {
  await world?.close();
});

const browse = (url: string, task: string) => turn("conversation", "reply", { response: "I'll look at the page.", action: "browse", browse_task: task, url }, { toolNames: ["reply"] });
const report = (contains: string) => turn("conversation", "reply", { response: "Here is what the browser found." }, { contains });

function observations(watch: { messages: { role: string; content: string; runId?: string | null; media?: string[] }[] }, runId: string) {
  return watch.messages
    .filter((msg) => msg.runId === runId && msg.role === "observation" && msg.content.startsWith("<browser_observation>"))
    .map((msg) => ({ wire: tagged<BrowserObservationWire>(msg.content, "browser_observation")!, text: msg.content, media: msg.media ?? [] }));
}

describe("the browsing agent", () => {
  // The run waits up to 180 s for its end below (a browser, the planner's kernel and the coder's,
  // on a loaded machine); the test's budget has to hold that wait.
  it("finds a photo on a page, saves it, and the planner and coder count the coins in it in the same run", { timeout: 240_000 }, async () => {
    const coins = JSON.parse(readFileSync(scenarioPath("count-coins.json"), "utf8")).turns as TurnIn[];
    const url = `${world.lab.origin}/agent-coins.html`;
    const { session, watch, runId } = await startBrowse(
      world,
      [
        browse(url, "Find the coins photo and save it."),
        browserTurn("save_image", { thinking: "The photo is the big image.", name: "coins.png", selector: "#coins" }, "coin collection"),
        browserTurn("done", { answer: "Saved the coin photo as coins.png." }, "Saved coins.png"),
        turn("conversation", "reply", { response: "Now I'll count them.", action: "generate_or_edit_vision_code" }, { contains: "coins.png" }),
        ...coins.slice(1, 7),
      ],
      `How many coins are in the photo on ${url}?`,
    );
    const end = await watch.until(["finished", "error", "stopped"], 180_000, runId);
    const mine = watch.messages.filter((msg) => msg.runId === runId);
    expect(end.agentState, JSON.stringify(mine.filter((msg) => msg.role === "error_observation"))).toBe("finished");

    // The browser's steps are in the chat: open, save, done, each with what it did.
    const steps = mine.filter((msg) => msg.role === "browser").map((msg) => tagged<BrowserActionWire>(msg.content, "browser_action")!);
    expect(steps.map((s) => s.tool)).toEqual(["goto", "save_image", "done"]);
    const shown = observations(watch, runId);
    expect(shown).toHaveLength(2);
    expect(shown[0]!.wire).toMatchObject({ url, title: "Lab Shop: coin collection", viewport: [1024, 768], error: "" });
    expect(shown[0]!.media[0]).toMatch(/^\/api\/files\//);

    // The saved photo is an upload of the session, at the photo's own resolution.
    const files = await world.call("GET", `/api/sessions/${session.id}/uploads`, { token: session.token });
    const saved = (files.json.uploads as { name: string; width: number; height: number }[]).find((f) => f.name === "coins.png");
    expect(saved).toMatchObject({ width: 384, height: 303 });

    // The planner and coder worked on it: the answer is 24.
    expect(mine.filter((msg) => msg.role === "coder").at(-1)!.content).toMatch(/def count_coins/);
    expect(mine.at(-1)!.content).toMatch(/24 coins/);
    // The browser model saw the screen at 800 px, not the 2048 px the HiDPI page rendered.
    const first = world.model.requests.find((r) => r.model === "browser")!;
    expect(JSON.stringify(first.messages)).toContain("800×600 pixels");
    watch.socket.disconnect();
  });

  it("replaces a field's text with a chord, asks before typing a password (refused: stays empty) and before submitting (confirmed)", async () => {
    const url = `${world.lab.origin}/agent-form.html`;
    const { session, watch, runId } = await startBrowse(
      world,
      [
        browse(url, "Sign in as new name."),
        browserTurn("computer", { action: "click", ...m(190, 116) }),
        browserTurn("computer", { action: "keypress", keys: ["CTRL", "A"] }),
        browserTurn("computer", { action: "type", text: "new name" }),
        browserTurn("computer", { action: "click", ...m(190, 176) }),
        browserTurn("computer", { action: "type", text: "hunter2" }),
        browserTurn("computer", { action: "click", ...m(110, 240) }, "The person refused this step"),
        browserTurn("done", { answer: "Signed in without a password." }, "signed-in"),
        report("Browser: Signed in"),
      ],
      `Sign in on ${url}`,
    );
    const password = (await answerSafety(world, session, watch, runId, "Refuse", 1)).payload as SafetyPayload;
    expect(password.checks.map((c) => c.code)).toEqual(["password_field"]);
    expect(password).toMatchObject({ action: 'type("hunter2")', url, viewport: [1024, 768] });
    expect(password.screenshot).toMatch(/^\/api\/files\//);
    const submit = (await answerSafety(world, session, watch, runId, "Confirm", 2)).payload as SafetyPayload;
    expect(submit.checks.map((c) => c.code)).toEqual(["form_submit"]);
    // The pointer is where the model clicked, back in CSS pixels.
    expect(submit.pointer).toEqual({ x: Math.round(m(110, 240).x * 1.28), y: Math.round(m(110, 240).y * 1.28) });

    const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((msg) => msg.role === "error_observation"))).toBe("finished");
    const shown = observations(watch, runId);
    // The chord replaced "old value"; the refused password never reached the field.
    expect(shown.at(-1)!.wire.url).toBe(`${world.lab.origin}/signed-in?name=new+name&password=`);
    expect(shown.find((o) => o.wire.action === 'type("hunter2")')!.wire.error).toMatch(/refused/);
    expect(world.lab.hits).toContain("GET /signed-in?name=new+name&password=");
    watch.socket.disconnect();
  });

  it("scrolls inside a box, follows a new tab, and goes on after a blocked address (policy checks off: no cards)", async () => {
    const url = `${world.lab.origin}/agent-scroll.html`;
    const { watch, runId } = await startBrowse(
      world,
      [
        browse(url, "Read the last review, then open help."),
        browserTurn("computer", { action: "scroll", ...m(240, 200), scroll_x: 0, scroll_y: Math.round(1300 / 1.28) }),
        browserTurn("computer", { action: "click", ...m(100, 355) }),
        browserTurn("goto", { url: "http://blocked.example/sponsor" }, "2 tabs open"),
        browserTurn("done", { answer: "Five stars; help is open." }, "blocked"),
        report("Five stars"),
      ],
      `What does the last review on ${url} say?`,
      { browserPolicyChecks: "never" },
    );
    const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((msg) => msg.role === "error_observation"))).toBe("finished");
    expect(world.lab.hits).toContain("GET /marker-seen");
    const shown = observations(watch, runId);
    expect(shown[2]!.wire).toMatchObject({ url: `${world.lab.origin}/help.html`, tabs: 2 });
    expect(shown[3]!.wire.error).toMatch(/blocked/i);
    expect(watch.messages.some((msg) => msg.runId === runId && msg.role === "interaction")).toBe(false);
    watch.socket.disconnect();
  });

  it("tells the model in words when an action is off the screen, names an unknown key, or is malformed", async () => {
    const url = `${world.lab.origin}/agent-coins.html`;
    const { watch, runId } = await startBrowse(
      world,
      [
        browse(url, "Click around."),
        browserTurn("computer", { action: "click", x: 5000, y: 10 }),
        browserTurn("computer", { action: "keypress", keys: ["NOPE_KEY"] }, "outside the"),
        browserTurn("computer", { action: "click", x: "left" }, "NOPE_KEY"),
        browserTurn("done", { answer: "Nothing to do." }, "not valid"),
        report("Nothing to do"),
      ],
      `Click around on ${url}`,
    );
    const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((msg) => msg.role === "error_observation"))).toBe("finished");
    const errors = observations(watch, runId).slice(1).map((o) => o.wire.error);
    expect(errors[0]).toMatch(/x=5000 is outside the 800×600 screenshot/);
    expect(errors[1]).toMatch(/NOPE_KEY/);
    expect(errors[2]).toMatch(/not valid/);
    watch.socket.disconnect();
  });

  it("stops a model that never says done at the step budget and reports it", async () => {
    const url = `${world.lab.origin}/agent-scroll.html`;
    const moves = Array.from({ length: MAX_STEPS }, (_, i) => browserTurn("computer", { action: "move", ...m(100 + i * 20, 500) }));
    const { watch, runId } = await startBrowse(world, [browse(url, "Keep moving."), ...moves, report(`all ${MAX_STEPS} of its steps`)], `Move around on ${url}`);
    const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((msg) => msg.role === "error_observation"))).toBe("finished");
    const mine = watch.messages.filter((msg) => msg.runId === runId);
    expect(mine.filter((msg) => msg.role === "browser")).toHaveLength(MAX_STEPS + 1);
    expect(mine.find((msg) => msg.role === "error_observation")!.content).toMatch(new RegExp(`used all ${MAX_STEPS} of its steps`));
    watch.socket.disconnect();
  });

  it("stops mid-action when the person cancels", async () => {
    const url = `${world.lab.origin}/agent-coins.html`;
    const { session, watch, runId } = await startBrowse(
      world,
      [browse(url, "Wait a long time."), browserTurn("computer", { action: "wait", ms: 30_000 }), browserTurn("done", { answer: "never" })],
      `Wait on ${url}`,
    );
    for (;;) {
      if (watch.messages.some((msg) => msg.runId === runId && msg.role === "browser" && msg.content.includes("wait("))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const cancelled = await world.call("POST", `/api/sessions/${session.id}/cancel`, { token: session.token });
    expect(cancelled.status).toBe(202);
    const end = await watch.until(["finished", "error", "stopped"], 20_000, runId);
    expect(end.agentState).toBe("stopped");
    // The wait never finished: no observation after it, and the model was not asked again.
    expect(observations(watch, runId)).toHaveLength(1);
    expect(world.model.requests.filter((r) => r.model === "browser")).toHaveLength(1);
    watch.socket.disconnect();
  });
});

