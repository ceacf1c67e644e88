/**
 * The browsing agent over the Responses API, end to end: a computer-use browser model
 * (ARGUS_MODEL_BROWSER=computer-use-preview, so ARGUS_BROWSER_API=auto picks `responses`) drives
 * a real Chromium on the lab site through a real Argus, the scripted model answering on
 * /v1/responses with computer_call items. The scripted model refuses what OpenAI refuses (an
 * output for a call it never made, a pending safety check left unacknowledged, a call left
 * without its output), so every run below also proves the protocol. HiDPI page, 800 px model
 * screen, as in agents-browse.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserObservationWire, SafetyPayload } from "@/lib/foundation/protocol/browser-wire";
import { answerSafety, m, startBrowse, startBrowseWorld, tagged, turn, type BrowseWorld, type TurnIn } from "@/tests/helpers/browse-run";
import type { LoggedRequest, Turn } from "@/scripted-model/server";

const CUA = "computer-use-preview";

let world: BrowseWorld;
beforeAll(async () => {
  world = await startBrowseWorld({ ARGUS_MODEL_BROWSER: CUA });
});
afterAll(async () => {
  await world?.close();
});

const browse = (url: string, task: string) => turn("conversation", "reply", { response: "I'll look at the page.", action: "browse", browse_task: task, url }, { toolNames: ["reply"] });
const report = (contains: string) => turn("conversation", "reply", { response: "Here is what the browser found." }, { contains });

/** A Responses API turn of the browser model, checked to offer the computer tool and the function tools. */
const cua = (answer: Omit<Turn, "model" | "expect">, expect: NonNullable<Turn["expect"]> = {}): Turn => ({
  model: CUA,
  ...answer,
  expect: { toolNames: ["computer_use_preview", "goto", "back", "save_image", "done"], ...expect },
});
const click = (x: number, y: number) => ({ computerCall: { action: { type: "click", button: "left", ...m(x, y) } } });
const TYPE_PASSWORD = { computerCall: { action: { type: "type", text: "hunter2" }, pendingSafetyChecks: [{ code: "sensitive_domain", message: "This page asks for a password." }] } };

/** The scenario mixes chat turns (conversation) and Responses turns (browser): both are scripted-model turns. */
const scenario = (turns: (TurnIn | Turn)[]) => turns as unknown as TurnIn[];

function observations(runId: string, watch: { messages: { role: string; content: string; runId?: string | null }[] }) {
  return watch.messages
    .filter((msg) => msg.runId === runId && msg.role === "observation" && msg.content.startsWith("<browser_observation>"))
    .map((msg) => tagged<BrowserObservationWire>(msg.content, "browser_observation")!);
}

const browserRequests = (): LoggedRequest[] => world.model.requests.filter((r) => r.model === CUA);
const itemsOf = (r: LoggedRequest) => r.input as Record<string, unknown>[];

describe("the browsing agent over the Responses API", () => {
  it("clicks, asks before typing a password the model flagged (confirmed: acknowledged by id), and sends current_url", async () => {
    const url = `${world.lab.origin}/agent-form.html`;
    world.model.reset();
    const { session, watch, runId } = await startBrowse(
      world,
      scenario([
        browse(url, "Sign in with the password hunter2."),
        cua({ reasoning: "The password field is under the name.", ...click(190, 176) }, { images: 1, maxImages: 1, contains: ["Sign in with the password hunter2", "800×600"] }),
        cua(TYPE_PASSWORD, { currentUrl: "/agent-form.html", acknowledged: [] }),
        cua(click(110, 240), { currentUrl: "/agent-form.html", acknowledged: ["sensitive_domain"] }),
        cua({ text: "Signed in." }, { currentUrl: "/signed-in?name=old+value&password=hunter2", acknowledged: [] }),
        report("Browser: Signed in."),
      ]),
      `Sign in on ${url}`,
    );
    // One card for the typing: the model's own check and Argus's password policy, asked before acting.
    const typing = (await answerSafety(world, session, watch, runId, "Confirm", 1)).payload as SafetyPayload;
    expect(typing.action).toBe('type("hunter2")');
    expect(typing.checks).toEqual([
      { code: "sensitive_domain", message: "This page asks for a password.", source: "model" },
      expect.objectContaining({ code: "password_field", source: "policy" }),
    ]);
    const submit = (await answerSafety(world, session, watch, runId, "Confirm", 2)).payload as SafetyPayload;
    expect(submit.checks.map((c) => c.code)).toEqual(["form_submit"]);

    const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((msg) => msg.role === "error_observation"))).toBe("finished");
    expect(world.lab.hits).toContain("GET /signed-in?name=old+value&password=hunter2");
    expect(observations(runId, watch).at(-1)!.url).toBe(`${world.lab.origin}/signed-in?name=old+value&password=hunter2`);

    const requests = browserRequests();
    expect(requests.map((r) => [r.api, r.status])).toEqual(Array(4).fill(["responses", 200]));
    // The confirmed check goes back with the id the model gave it.
    const third = itemsOf(requests[2]!);
    const flagged = third.find((i) => i.type === "computer_call" && (i.action as { type: string }).type === "type")!;
    const output = third.find((i) => i.type === "computer_call_output" && i.call_id === flagged.call_id)!;
    expect(output.acknowledged_safety_checks).toEqual(flagged.pending_safety_checks);
    expect(output.acknowledged_safety_checks).toEqual([{ id: expect.stringMatching(/^cu_sc_/), code: "sensitive_domain", message: "This page asks for a password." }]);
    expect(output.current_url).toBe(url);
    expect(output.output).toEqual({ type: "computer_screenshot", image_url: expect.stringMatching(/^\[image \d+ bytes\]$/) });
    // The first click landed where the model pointed, scaled from its 800 px screen to the page.
    expect(observations(runId, watch)[1]!.pointer).toEqual({ x: Math.round(m(190, 176).x * 1.28), y: Math.round(m(190, 176).y * 1.28) });
    watch.socket.disconnect();
  });

  it("a refused check: the action never runs, the call leaves the history, and the model is told in words", async () => {
    const url = `${world.lab.origin}/agent-form.html`;
    world.model.reset();
    const { session, watch, runId } = await startBrowse(
      world,
      scenario([
        browse(url, "Sign in with the password hunter2."),
        cua(click(190, 176)),
        cua(TYPE_PASSWORD),
        cua(click(110, 240), { contains: "The person refused this step" }),
        cua({ text: "I signed in without the password: typing it was refused." }, { currentUrl: "/signed-in?name=old+value&password=" }),
        report("typing it was refused"),
      ]),
      `Sign in on ${url}`,
    );
    const typing = (await answerSafety(world, session, watch, runId, "Refuse", 1)).payload as SafetyPayload;
    expect(typing.checks.map((c) => [c.code, c.source])).toEqual([
      ["sensitive_domain", "model"],
      ["password_field", "policy"],
    ]);
    await answerSafety(world, session, watch, runId, "Confirm", 2);

    const end = await watch.until(["finished", "error", "stopped"], 120_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((msg) => msg.role === "error_observation"))).toBe("finished");
    // The refused password never reached the field.
    expect(world.lab.hits).toContain("GET /signed-in?name=old+value&password=");
    expect(observations(runId, watch).find((o) => o.action === 'type("hunter2")')!.error).toMatch(/refused/);

    const requests = browserRequests();
    expect(requests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // After the refusal: no trace of the refused call, and the refusal in words as the last item.
    const third = itemsOf(requests[2]!);
    expect(third.filter((i) => i.type === "computer_call").map((i) => (i.action as { type: string }).type)).toEqual(["click"]);
    expect(JSON.stringify(third.at(-1))).toContain("The person refused this step");
    const mine = watch.messages.filter((msg) => msg.runId === runId);
    expect(mine.at(-1)!.content).toBe("Here is what the browser found.");
    watch.socket.disconnect();
  });
});
