import type { Agent, AgentFactory, StepResult } from "@/agents/types";
import type { AskPerson, PersonAnswer, PersonQuestion } from "@/lib/engines/kernels/bridge";
import type { InteractionKind } from "@/lib/foundation/protocol/interaction-choice";
import { BridgeMeter } from "@/lib/engines/kernels/bridge-meter";
import { cellOutputOf } from "@/lib/engines/kernels/execution-text";
import type { ModelClient } from "@/lib/engines/llm/models";
import { toLlmMetrics } from "@/lib/engines/llm/usage";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { cellObservation, delegateResult, errorNote, stateChanged } from "@/lib/foundation/protocol/event-builders";
import type { AgentName, AgentState, ArgusEvent, ArgusEventInput } from "@/lib/foundation/protocol/events";
import type { ModelReply } from "@/lib/foundation/protocol/model-replies";
import type { RunLimits } from "@/lib/foundation/protocol/state";
import { endingOfError, RunEnded, writeRunEnding, type RunEnding } from "./run-ending";
import { stepDrafts } from "./step-drafts";
import { checkRunBudgets } from "./run-budgets";
import { recordingModel } from "./model-replies";
import { cellImageLabels, liveCellImageExtras } from "./cell-image-extras";
import type { RebuiltRun, RunServices } from "./run-services";

export type { CellImage, RebuiltRun, RunServices } from "./run-services";

export interface ControllerOptions {
  sessionId: string;
  runId: string;
  signal: AbortSignal;
  limits: RunLimits;
  /** Resolves with the person's answer to the interaction event `seq` (of that `kind`). */
  waitForAnswer: (seq: number, kind: InteractionKind) => Promise<ArgusEvent>;
  /** True once the server is shutting down: the run was already marked interrupted, write nothing more. */
  closing: () => boolean;
  /** Makes the agents the run's agents delegate to. */
  agents: AgentFactory;
  /** Asks the person from inside a cell (tool review), in this run, on behalf of `agent`. */
  ask: (question: PersonQuestion, agent: AgentName) => Promise<PersonAnswer>;
}

const STOPPED_BY_PERSON: RunEnding = { kind: "stopped_by_person" };

/** Thrown instead of writing once the server is shutting down. */
class ServerClosing extends Error {}

interface Frame {
  agent: Agent;
}

/**
 * The OpenHands-shaped loop: the agent on top of the delegation stack steps
 * (one decision, usually one model call), the action is persisted, then
 * carried out, and its observation is persisted and handed back. Delegation
 * pushes a frame (conversation → coder → planner); finishing pops it and the
 * parent observes the outputs. One AbortSignal reaches every model call and
 * every cell; budgets and stuck detection end the run with a readable reason.
 */
export class Controller {
  private readonly stack: Frame[] = [];
  private startedAt = Date.now();
  private firstSeq = 0;
  /** Steps taken in this run, so each step's drafts share a key. */
  private steps = 0;
  /** The action logged but not yet carried out (a cell the run was stopped in): a continue carries it out again. */
  private unfinished: { frame: Frame; action: ArgusEvent; result: StepResult } | null = null;
  /** How the run last ended; a failure or a stop can be continued (resume). */
  private ending: RunEnding | null = null;
  /** Set up from the log (adopt) rather than run here: it can be resumed once. */
  private adopted = false;

  constructor(
    private readonly services: RunServices,
    private readonly model: ModelClient,
    private o: ControllerOptions,
  ) {}

  /**
   * Whether the run can go on from where it ended (Retry after a failure, Continue after a
   * stop): its agents, their delegation stack and the step it stopped at are all still here.
   */
  get resumable(): boolean {
    return this.stack.length > 0 && (this.adopted || this.ending?.kind === "failed" || this.ending?.kind === "stopped_by_person");
  }

  private async append(event: ArgusEventInput): Promise<ArgusEvent> {
    if (this.o.closing()) throw new ServerClosing();
    return (await this.services.events.append(this.o.sessionId, { ...event, runId: this.o.runId })).event;
  }

  private async setState(agentState: AgentState, reason = ""): Promise<void> {
    await this.append(stateChanged(agentState, reason));
  }

  async run(root: Agent, firstSeq: number): Promise<void> {
    this.firstSeq = firstSeq;
    this.stack.push({ agent: root });
    await this.drive();
  }

  /** Takes the state of a run rebuilt from the log (another instance ran it); `resume` goes on from there. */
  adopt(run: RebuiltRun): void {
    this.stack.push(...run.stack.map((agent) => ({ agent })));
    this.firstSeq = run.firstSeq;
    this.steps = run.steps;
    const top = this.stack.at(-1);
    this.unfinished = run.unfinished && top ? { frame: top, ...run.unfinished } : null;
    this.adopted = true;
  }

  /**
   * Goes on with a run that failed or was stopped (see `resumable`), under the new attempt's signal and
   * callbacks: the action it stopped in is carried out again, then the top agent takes the failed step.
   */
  async resume(options: ControllerOptions, since = Date.now()): Promise<void> {
    if (!this.resumable) throw new Error("this run cannot be continued");
    this.o = options;
    // From before the notebook's rebuild, when there was one: it is this attempt's work too.
    this.startedAt = since;
    this.ending = null;
    this.adopted = false;
    await this.drive();
  }

  private async drive(): Promise<void> {
    await this.setState("running");
    try {
      const unfinished = this.unfinished;
      if (unfinished) await this.carryOutOnce(unfinished.frame, unfinished.action, unfinished.result);
      while (this.stack.length > 0) {
        const { sessionId, runId, limits } = this.o;
        const events = () => this.services.events.eventsAfter(sessionId, this.firstSeq - 1);
        await checkRunBudgets({ state: await this.services.events.runState(sessionId, runId), limits, startedAt: this.startedAt, events, runId });
        const frame = this.stack.at(-1)!;
        const { result, replies } = await this.step(frame);
        // Before the finish is logged: whoever sees it (the Code tab) finds the kept function already there.
        if (result.action.action === "finish") {
          await this.services.onAgentFinished?.({ sessionId: this.o.sessionId, runId: this.o.runId, agent: frame.agent.name, outputs: result.action.args.outputs });
        }
        const action = await this.append({
          source: "agent",
          agent: frame.agent.name,
          ...result.action,
          llm_metrics: toLlmMetrics(result.usage),
          // What the model said in this step: another instance rebuilds the agent's memory from it.
          model_replies: replies,
        });
        await this.carryOutOnce(frame, action, result);
      }
      await writeRunEnding((event) => this.append(event), this.o.runId, { kind: "finished" });
    } catch (error) {
      await this.end(error);
    }
  }

  /**
   * One agent step, its model replies streamed to the session as live drafts. The last draft is
   * flushed before returning, that is before the step's event is appended, so a client always
   * sees the draft first and the persisted event replace it.
   */
  private async step(frame: Frame): Promise<{ result: StepResult; replies: ModelReply[] }> {
    if (this.o.signal.aborted) throw new RunEnded(STOPPED_BY_PERSON);
    const { sessionId, runId } = this.o;
    const drafts = stepDrafts({
      runId,
      agent: frame.agent.name,
      step: ++this.steps,
      // Read as each draft goes out, so it cannot wait for the database: this
      // process appended every event of the run so far, so it knows the newest.
      lastSeq: () => this.services.events.newestWritten(sessionId),
      send: (draft) => {
        if (!this.o.closing()) this.services.drafts.publish(sessionId, draft);
      },
    });
    const recorded = recordingModel(this.model);
    try {
      const result = await frame.agent.step({ sessionId, runId, signal: this.o.signal, model: recorded.model, onDraft: drafts.onDraft });
      drafts.flush();
      return { result, replies: recorded.replies };
    } finally {
      drafts.close();
    }
  }

  /** Carries out a logged action, remembered until it is done so a continue can do it again. */
  private async carryOutOnce(frame: Frame, action: ArgusEvent, result: StepResult): Promise<void> {
    this.unfinished = { frame, action, result };
    await this.carryOut(frame, action, result);
    this.unfinished = null;
  }

  private async carryOut(frame: Frame, action: ArgusEvent, result: StepResult): Promise<void> {
    const a = result.action;
    switch (a.action) {
      case "message":
        return;
      case "run_ipython":
        return this.runCell(frame, action, a.args.code);
      case "browse":
        return this.browse(frame, action, { kind: "open", url: a.args.url });
      case "browse_interactive":
        return this.browse(frame, action, { kind: "command", json: a.args.browser_actions });
      case "interaction": {
        // Wait for the answer before writing anything more: the question is
        // already on screen, and an answer arriving during the next write must
        // find the run waiting for it.
        const waiting = this.o.waitForAnswer(action.id!, a.args.kind);
        waiting.catch(() => undefined); // awaited below; a cancel meanwhile is not unhandled
        await this.setState("awaiting_user_input");
        const answer = await waiting;
        await this.setState("running");
        await frame.agent.observe(answer);
        return;
      }
      case "delegate":
        this.stack.push({ agent: await this.o.agents(a.args.agent, a.args.inputs) });
        return;
      case "finish":
      case "reject": {
        this.stack.pop();
        const parent = this.stack.at(-1);
        if (!parent) return;
        const outputs = a.args.outputs;
        // The finishing agent says what its outputs mean (each parses its own context schema).
        const content = frame.agent.describeOutputs?.(outputs) ?? `${frame.agent.name} finished.`;
        const observation = await this.append(delegateResult(parent.agent.name, content, outputs, { cause: action.id }));
        await parent.agent.observe(observation);
        return;
      }
    }
  }

  /** Meters one cell's bridge calls against the run's budgets (see BridgeMeter); also a rebuild's re-run cells. */
  bridgeMeter(): BridgeMeter {
    return new BridgeMeter(this.services.bridgeCallsPerCell, {
      tokensLeft: () => {
        // Asked synchronously by the bridge; a live run's state is always cached.
        const totals = this.services.events.cachedRunState(this.o.runId)?.metrics.totals ?? { inputTokens: 0, outputTokens: 0 };
        return this.o.limits.maxTokens - totals.inputTokens - totals.outputTokens;
      },
      msLeft: () => this.o.limits.maxWallClockMs - (Date.now() - this.startedAt),
    });
  }

  private async runCell(frame: Frame, action: ArgusEvent, code: string): Promise<void> {
    const kernels = this.services.kernels;
    const meter = this.bridgeMeter();
    const ask: AskPerson = (question) => this.o.ask(question, frame.agent.name);
    let execution: Execution;
    if (!kernels) {
      execution = { results: [], stdout: "", stderr: "", error: { name: "Unavailable", value: "Jupyter is off, so code cannot run.", traceback: "Jupyter is off, so code cannot run." } };
    } else if (agentCard(frame.agent.name)?.cells === "isolated") {
      // An agent that tests (the coder) runs in a fresh kernel, never the session's notebook.
      execution = await kernels.isolated(this.o.sessionId, async (kernel) => {
        const outcome = await kernel.execute(code, { signal: this.o.signal, timeoutMs: this.services.cellTimeoutMs, bridgeMeter: meter, ask });
        return outcome.execution;
      });
    } else {
      execution = await kernels.execute(this.o.sessionId, code, { signal: this.o.signal, bridgeMeter: meter, ask });
    }
    // A stopped cell still records what it printed until then (marked stopped), so the
    // step reads "stopped" live and after a reload instead of running forever.
    const stopped = this.o.signal.aborted;
    const images = await this.services.storeCellImages(this.o.sessionId, execution, `turn ${action.id}`);
    const observation = await this.append({
      ...cellObservation(frame.agent.name, { code, output: cellOutputOf(execution), imageUrls: images.map((i) => i.url), imageLabels: cellImageLabels(images), failed: execution.error !== null, stopped }, { cause: action.id }),
      // What the cell's own model calls (vqa, describe…) spent counts in the run's metrics.
      ...(meter.callCount > 0 ? { llm_metrics: toLlmMetrics(meter.usage) } : {}),
    });
    if (stopped) throw new RunEnded(STOPPED_BY_PERSON);
    await frame.agent.observe(observation, liveCellImageExtras(images));
  }

  /** One browsing step: the browser carries it out (asking the person first when it is risky). */
  private async browse(frame: Frame, action: ArgusEvent, step: { kind: "open"; url: string } | { kind: "command"; json: string }): Promise<void> {
    const browser = this.services.browser;
    if (!browser) {
      const observation = await this.append(errorNote("Browsing is not set up here: name a browser model (ARGUS_MODEL_BROWSER) and install Chromium.", "BROWSER_OFF", { cause: action.id }));
      await frame.agent.observe(observation);
      return;
    }
    const result = await browser.perform({
      sessionId: this.o.sessionId,
      step,
      signal: this.o.signal,
      // The browser's safety check is answered in words (Allow or Refuse).
      ask: async (question) => (await this.o.ask(question, frame.agent.name)).text,
    });
    if (this.o.signal.aborted) throw new RunEnded(STOPPED_BY_PERSON);
    const observation = await this.append({ ...result.observation, cause: action.id });
    await frame.agent.observe(observation, { images: result.images, viewed: [] });
  }

  /**
   * Ends the run: a readable error in the chat (when the ending has one), and the run's final
   * state (see run-ending.ts). A full disk may still let these writes through (a blob failed, the
   * log had room); if not, the run manager ends the run in memory (endUnwritten).
   */
  private async end(error: unknown): Promise<void> {
    if (this.o.closing()) return;
    this.ending = endingOfError(error, this.o.signal.aborted);
    await writeRunEnding((event) => this.append(event), this.o.runId, this.ending);
  }
}
