/**
 * Rebuilding a run's agents from its log with Argus's real agents (conversation → coder →
 * planner), no server, kernel or model: the log's recorded replies stand in for the model, and
 * the rebuilt planner's next model call is checked to carry what its earlier cells printed.
 */
import { describe, expect, it } from "vitest";
import { CoderAgent, type CoderInputs } from "@/agents/coder/agent";
import { ConversationAgent } from "@/agents/conversation/agent";
import { PlannerAgent } from "@/agents/planner/agent";
import type { Agent, AgentModel, RunAgents } from "@/agents/types";
import { cellObservation, personMessage } from "@/lib/foundation/protocol/event-builders";
import type { ArgusEvent, ArgusEventInput } from "@/lib/foundation/protocol/events";
import type { ModelReply } from "@/lib/foundation/protocol/model-replies";
import type { RunStart } from "@/lib/features/runtime/active-run";
import { replayingModel } from "@/lib/features/runtime/model-replies";
import { rebuildRun } from "@/lib/features/runtime/run-rebuild";
import { fromDict } from "@/lib/features/runtime/serialization";
import { emptyCellOutput } from "@/lib/foundation/protocol/cell-output-text";

function log(...inputs: ArgusEventInput[]): ArgusEvent[] {
  return inputs.map((e, i) => ({ ...fromDict(e), id: i + 1 }));
}

const call = (name: string, args: Record<string, unknown>): ModelReply => ({ kind: "tool_call", name, args: args as never, text: "", thinking: "" });
const run = { runId: "r" };
const CODER_INPUTS = { mode: "plan", task: "What is 41 plus one?", uploads: [], files: [], catalogue: "" };

/** The run's agents as the registry makes them, without a database: the same classes. */
async function agents(start: RunStart): Promise<RunAgents> {
  const root = new ConversationAgent({ history: [{ role: "user", content: start.text }], request: { text: start.text, uploads: [] }, lastCode: null, canBrowse: false, startBatch: null });
  const create = async (name: string, inputs: Record<string, unknown>): Promise<Agent> => {
    if (name === "coder") return new CoderAgent(inputs as CoderInputs);
    return new PlannerAgent({ catalogue: "", task: String(inputs.task ?? ""), uploads: [], maxTurns: 5 }, async () => {
      throw new Error("no pictures in this run");
    });
  };
  return { root, create };
}

const cell = (code: string): ArgusEventInput => ({ source: "agent", agent: "planner", ...run, action: "run_ipython", args: { code, thought: "" }, model_replies: [call("execute_python", { code, thinking: "" })] });

/** A run stopped while its planner's second cell ran; the first set `base`. */
const LOG = log(
  personMessage("What is 41 plus one?", [], run),
  { source: "agent", agent: "conversation", ...run, action: "message", args: { content: "Let me work it out." }, model_replies: [call("reply", { response: "Let me work it out.", action: "generate_or_edit_vision_code" })] },
  { source: "agent", agent: "conversation", ...run, action: "delegate", args: { agent: "coder", inputs: CODER_INPUTS, thought: "" }, model_replies: [] },
  { source: "agent", agent: "coder", ...run, action: "delegate", args: { agent: "planner", inputs: { task: "add one", uploads: [] }, thought: "" }, model_replies: [] },
  cell("base = 41\nprint('base is set')"),
  cellObservation("planner", { code: "base = 41", output: { ...emptyCellOutput(), stdout: "base is set" }, imageUrls: [], failed: false }, { ...run, cause: 5 }),
  cell("print('the answer is', base + 1)"),
);

describe("a run's agents rebuilt from its log", () => {
  it("stand as they stood: the delegation stack, the step count, the cell in flight, and the planner's memory of its earlier cells", async () => {
    const rebuilt = await rebuildRun({ sessionId: "s", runId: "r", events: LOG, agents, images: new Map() });
    if ("why" in rebuilt) throw new Error(rebuilt.why);
    expect(rebuilt.run.stack.map((a) => a.name)).toEqual(["conversation", "coder", "planner"]);
    expect(rebuilt.run.steps).toBe(5);
    expect(rebuilt.run.firstSeq).toBe(1);
    expect(rebuilt.run.unfinished?.action.id).toBe(7);
    expect(rebuilt.run.unfinished?.result.action).toEqual({ action: "run_ipython", args: { code: "print('the answer is', base + 1)", thought: "" } });

    // The cell in flight is done again and observed; the planner's next call shows both cells.
    const planner = rebuilt.run.stack.at(-1)!;
    await planner.observe(fromDict(cellObservation("planner", { code: "", output: { ...emptyCellOutput(), stdout: "the answer is 42" }, imageUrls: [], failed: false }, { ...run, cause: 7 })));
    const asked: string[] = [];
    const inner = replayingModel([call("finalize_plan", { thinking: "42" }), call("submit_plan", { plan: "42", instructions: ["add one"], code: "" })]);
    const model: AgentModel = {
      callTool: (role, request) => {
        asked.push(JSON.stringify(request.messages));
        return inner.callTool(role, request);
      },
      responses: (role, request) => inner.responses(role, request),
    };
    const next = await planner.step({ sessionId: "s", runId: "r", signal: new AbortController().signal, model });
    expect(next.action.action).toBe("finish");
    expect(asked[0]).toContain("base is set");
    expect(asked[0]).toContain("the answer is 42");
  });

  it("is refused, with the reason, when the log does not match what the agents do again", async () => {
    // The conversation's recorded reply asked for no vision code, yet the log has it delegate.
    const differs = LOG.map((e) => (e.id === 2 ? { ...e, model_replies: [call("reply", { response: "Let me work it out." })] } : e));
    expect(await rebuildRun({ sessionId: "s", runId: "r", events: differs, agents, images: new Map() })).toEqual({ why: expect.stringMatching(/step 3/) });
    // A step recorded with fewer replies than the agent asks for.
    const short = LOG.map((e) => (e.id === 5 ? { ...e, model_replies: [] } : e));
    expect(await rebuildRun({ sessionId: "s", runId: "r", events: short, agents, images: new Map() })).toEqual({ why: expect.stringMatching(/more than the log recorded/) });
  });
});
