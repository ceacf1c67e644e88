/**
 * What real models write, end to end: the count-coins run (HTTP, Socket.io, real kernels) with
 * the scripted model answering in each habit of the open and hosted models people serve (code
 * in a markdown fence, `<think>` in the text, double-encoded or loose JSON, a trained-on tool
 * name, plain text, a reply cut at the output limit). Argus undoes the first four where a call
 * enters it, so each run must answer 24 with exactly the model requests of the clean run; the
 * last two cost exactly one correction, or end in a readable error. One server for every case.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScenario, type Scenario } from "@/scripted-model/server";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";

type Turn = Scenario["turns"][number];

/** The first message's turns: conversation, planner ×3, coder ×2, conversation. */
const COINS = loadScenario(scenarioPath("count-coins.json")).turns.slice(0, 7);
const [converse, explore, finalize, submit, write, test, answer] = COINS as [Turn, Turn, Turn, Turn, Turn, Turn, Turn];

let world: AgentWorld;
let cleanRequests = 0;

beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("count-coins.json"));
});
afterAll(async () => {
  await world?.close();
});

/** Collapses runs of the same role. */
const roleRuns = (roles: string[]) => roles.filter((r, i) => r !== roles[i - 1]);

interface Run {
  state: string;
  messages: StreamedMessage[];
  /** Every request the model got during the run. */
  requests: typeof world.model.requests;
}

/** One coins run against these turns, in a new session. */
async function runCoins(turns: Turn[]): Promise<Run> {
  world.model.load({ name: "count coins, with habits", turns });
  const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  const upload = await uploadFile(world, session, await coinsPng(), "coins.png");
  const watch = await watchSession(world.server.url, session);
  try {
    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [upload.id] },
    });
    expect(posted.status).toBe(202);
    const runId = posted.json.runId as string;
    const end = await watch.until(["finished", "error", "stopped"], RUN_TIMEOUT - 10_000, runId);
    return { state: end.agentState, messages: watch.messages.filter((m) => m.runId === runId), requests: [...world.model.requests] };
  } finally {
    watch.socket.disconnect();
  }
}

/** The clean run's shape: the planner explored once, the coder's test printed 24, the answer says 24. */
function expectAnswered24(run: Run): void {
  expect(run.state, JSON.stringify(run.messages.filter((m) => m.role === "error_observation"))).toBe("finished");
  expect(roleRuns(run.messages.map((m) => m.role))).toEqual(["user", "conversation", "planner", "observation", "planner", "coder", "observation", "coder", "conversation"]);
  const observations = run.messages.filter((m) => m.role === "observation");
  expect(observations[0]!.content).toMatch(/24 coins/);
  expect(observations.at(-1)!.content).toMatch(/^24\b|\n24\b/);
  for (const m of run.messages) expect(m.content).not.toMatch(/SyntaxError|```/);
  expect(run.messages.at(-1)!.content).toMatch(/24 coins/);
}

async function health(): Promise<{ models: Record<string, string>; modelNotes?: Record<string, string> }> {
  return (await world.call("GET", "/api/health")).json as { models: Record<string, string>; modelNotes?: Record<string, string> };
}

/** A whole coins run: kernels start on a busy machine; the wait is on the run's end, this is only a ceiling. */
const RUN_TIMEOUT = 420_000;

describe("count coins with real models' habits", () => {
  it("the clean run: the baseline of model requests, and healthy models", async () => {
    const run = await runCoins(COINS);
    expectAnswered24(run);
    cleanRequests = run.requests.length;
    expect(cleanRequests).toBe(COINS.length);
    const h = await health();
    expect(h.models.planner).toBe("ok");
    expect(h.modelNotes).toBeUndefined();
  }, RUN_TIMEOUT);

  it("code in a markdown fence (```python, a bare fence, a sentence before it) is unwrapped, for the planner and the coder", async () => {
    const run = await runCoins([converse, { ...explore, fence: "python" }, finalize, { ...submit, fence: "bare" }, { ...write, fence: "sentence" }, { ...test, fence: "python" }, answer]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests);
    const h = await health();
    expect(h.models).toMatchObject({ planner: "degraded", coder: "degraded" });
    expect(h.modelNotes!.planner).toMatch(/code wrapped in a markdown fence/);
  }, RUN_TIMEOUT);

  it("<think>…</think> in the text is the step's thought, never the answer", async () => {
    const run = await runCoins([
      converse,
      { ...explore, reasoning: "The coins are bright on a dark table; a watershed should split them.", thinkInText: "think" },
      finalize,
      submit,
      write,
      test,
      { ...answer, reasoning: "The test printed 24, so the count holds.", thinkInText: "think" },
    ]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests);
    const planner = run.messages.find((m) => m.role === "planner")!;
    expect(JSON.stringify(planner)).toContain("a watershed should split them");
    for (const m of run.messages) expect(m.content).not.toMatch(/<\/?think>/);
    expect(run.messages.at(-1)!.content).not.toContain("the count holds");
    expect((await health()).modelNotes).toMatchObject({ planner: expect.stringMatching(/thinking written in the reply's text/), conversation: expect.stringMatching(/thinking/) });
  }, RUN_TIMEOUT);

  it("arguments encoded twice, as loose JSON, or as an object (Ollama) are read", async () => {
    const run = await runCoins([
      converse,
      { ...explore, argumentsAs: "double_encoded" },
      finalize,
      { ...submit, wire: { argumentsAsObject: true } },
      { ...write, argumentsAs: "loose" },
      test,
      answer,
    ]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests);
    expect((await health()).modelNotes!).toMatchObject({ planner: expect.stringMatching(/arguments encoded twice/), coder: expect.stringMatching(/loose JSON/) });
  }, RUN_TIMEOUT);

  it("a tool called by a trained-on name (python, final_answer) is mapped when its arguments fit", async () => {
    const response = (answer.toolCalls![0]!.args as { response: string }).response;
    const run = await runCoins([converse, { ...explore, callAs: "python" }, finalize, submit, write, test, { ...answer, toolCalls: [{ name: "final_answer", args: { answer: response } }] }]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests);
    expect((await health()).modelNotes!).toMatchObject({ planner: expect.stringMatching(/another name/), conversation: expect.stringMatching(/another name/) });
  }, RUN_TIMEOUT);

  it("plain text where a call is due costs exactly one correction, which names the tools", async () => {
    const run = await runCoins([
      converse,
      { model: "planner", text: "I will segment the coins with a watershed and count them." },
      { ...explore, expect: { contains: "Your reply did not call a tool. Call exactly one of: execute_python, ask_user, finalize_plan." } },
      finalize,
      submit,
      write,
      test,
      answer,
    ]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests + 1);
    expect(run.requests.every((r) => r.status === 200)).toBe(true);
  }, RUN_TIMEOUT);

  it("a reply cut at the output limit (finish_reason length) is not run; one correction asks for a shorter one", async () => {
    const run = await runCoins([
      converse,
      { ...explore, cutOff: true },
      { ...explore, expect: { contains: "Your reply was cut off at your output token limit before your tool call was complete, so nothing was run." } },
      finalize,
      submit,
      write,
      test,
      answer,
    ]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests + 1);
    expect(run.requests.every((r) => r.status === 200)).toBe(true);
  }, RUN_TIMEOUT);

  it("plain text twice: the run ends with a readable error card, not a crash or a silent end", async () => {
    const chatter: Turn = { model: "planner", text: "I think there are about 20 coins." };
    const run = await runCoins([converse, chatter, chatter, ...COINS.slice(1)]);
    const errors = run.messages.filter((m) => m.role === "error_observation");
    expect(errors.map((m) => m.content).join("\n")).toMatch(/answered in plain text instead of calling one of its tools \(execute_python, ask_user, finalize_plan\), twice in a row[\s\S]*about 20 coins/);
    // One correction, then no more planner requests.
    expect(run.requests.filter((r) => r.model === "planner")).toHaveLength(2);
  }, RUN_TIMEOUT);

  // Last: under the default `auto` protocol a call written in text moves the planner to the text protocol for good.
  it("an unclosed <think> before a tagged call: the call is read and run", async () => {
    const run = await runCoins([converse, { ...explore, reasoning: "Segment them with a watershed first.", thinkInText: "unclosed" }, finalize, submit, write, test, answer]);
    expectAnswered24(run);
    expect(run.requests).toHaveLength(cleanRequests);
    const planner = run.messages.find((m) => m.role === "planner")!;
    expect(JSON.stringify(planner)).toContain("Segment them with a watershed first.");
  }, RUN_TIMEOUT);
});
