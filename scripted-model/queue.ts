/**
 * Which turn answers a request. Each model has its own queue (the turns whose `model` is that
 * name, in file order), so a coder request never consumes a planner turn. Pure state, no I/O:
 * the server asks `take()` and then performs whatever it returns.
 */
import { expectViolations } from "./expect";
import type { ChatRequest } from "./request";
import type { Expect, Fault, Scenario, Turn } from "./scenario";

/** What to do with a request. Turn numbers count from 1, as in every message. */
export type Decision =
  /** Answer with the turn's text and tool calls (after `delayMs`); the turn is now used. */
  | { kind: "answer"; turn: Turn; turnNumber: number; delayMs: number }
  /** Answer with the turn's fault; `consumed` is false while a `times` fault has repeats left. */
  | { kind: "fault"; turn: Turn; turnNumber: number; fault: Exclude<Fault, { type: "slow" }>; consumed: boolean }
  /** No turn fits, or the next one's `expect` is broken; nothing is consumed. */
  | { kind: "mismatch"; turnNumber: number | null; message: string }
  /** A model check with no turn scripted for it: the server answers it like a capable model. */
  | { kind: "probe" };

export class TurnQueue {
  private readonly scenario: Scenario;
  private readonly usedTurns: number[] = [];
  private readonly usedSet = new Set<number>();
  /** How many times each `times` fault has been served, by turn index. */
  private readonly faultsServed = new Map<number, number>();
  /** The turn index that answered each request (model, messages, tools; not with a fault): what `answer_again` repeats. */
  private readonly answeredBy = new Map<string, number>();

  constructor(scenario: Scenario) {
    this.scenario = scenario;
  }

  /** Distinct model names in file order. */
  models(): string[] {
    return [...new Set(this.scenario.turns.map((turn) => turn.model))];
  }

  /**
   * `extra` adds checks of the next turn beyond its `expect` on the chat view (the Responses
   * API's own expectations, or "this turn is not for this API").
   */
  take(request: ChatRequest, extra: (turn: Turn, expect: Expect | undefined) => string[] = () => [], probe = false): Decision {
    const { name, turns } = this.scenario;
    const again = probe ? null : this.answeredAlready(request);
    if (again !== null) return again;
    // A model check takes only turns scripted for checks, and Argus's calls never take those.
    const index = turns.findIndex((turn, i) => turn.model === request.model && (turn.probe === true) === probe && !this.usedSet.has(i));
    const turn = turns[index];
    if (turn === undefined && probe) return { kind: "probe" };
    if (turn === undefined) return { kind: "mismatch", turnNumber: null, message: this.noTurnMessage(request.model) };

    const turnNumber = index + 1;
    const violations = [...extra(turn, turn.expect), ...expectViolations(turn.expect, request)];
    if (violations.length > 0) {
      const message = `scenario ${JSON.stringify(name)}: turn ${turnNumber} (model ${turn.model}) expected the request to ${violations.join("; and to ")}`;
      return { kind: "mismatch", turnNumber, message };
    }

    const fault = turn.fault;
    if (fault === undefined || fault.type === "slow") {
      this.consume(index);
      this.answered(request, index);
      return { kind: "answer", turn, turnNumber, delayMs: fault?.ms ?? 0 };
    }
    if (fault.times === undefined) {
      this.consume(index);
      return { kind: "fault", turn, turnNumber, fault, consumed: true };
    }
    const served = this.faultsServed.get(index) ?? 0;
    if (served < fault.times) {
      this.faultsServed.set(index, served + 1);
      return { kind: "fault", turn, turnNumber, fault, consumed: false };
    }
    this.consume(index);
    this.answered(request, index);
    return { kind: "answer", turn, turnNumber, delayMs: 0 };
  }

  /**
   * Under `repeatedRequests: "answer_again"`, the turn that answered this very request before,
   * answered again (a step of several calls repeated after its owner died repeats each of them).
   */
  private answeredAlready(request: ChatRequest): Decision | null {
    const index = this.scenario.repeatedRequests === "answer_again" ? this.answeredBy.get(requestKey(request)) : undefined;
    if (index === undefined) return null;
    const turn = this.scenario.turns[index]!;
    this.usedTurns.push(index + 1);
    return { kind: "answer", turn, turnNumber: index + 1, delayMs: turn.fault?.type === "slow" ? turn.fault.ms : 0 };
  }

  private answered(request: ChatRequest, index: number): void {
    this.answeredBy.set(requestKey(request), index);
  }

  /** Turn numbers in the order they were used. */
  used(): number[] {
    return [...this.usedTurns];
  }

  /** Unused turns per model, including models whose queue is empty. */
  remaining(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const model of this.models()) counts[model] = 0;
    this.scenario.turns.forEach((turn, i) => {
      if (!this.usedSet.has(i)) counts[turn.model] = (counts[turn.model] ?? 0) + 1;
    });
    return counts;
  }

  reset(): void {
    this.usedTurns.length = 0;
    this.usedSet.clear();
    this.faultsServed.clear();
    this.answeredBy.clear();
  }

  private consume(index: number): void {
    this.usedSet.add(index);
    this.usedTurns.push(index + 1);
  }

  private noTurnMessage(model: string): string {
    const scenario = `scenario ${JSON.stringify(this.scenario.name)}`;
    const total = this.scenario.turns.filter((turn) => turn.model === model).length;
    if (total > 0) return `${scenario}: no unused turn for model ${JSON.stringify(model)} (${total} of ${total} used)`;
    return `${scenario}: no turn for model ${JSON.stringify(model)} (the scenario has turns for: ${this.models().join(", ")})`;
  }
}

/** What makes two requests the same question: the model asked, the messages and the tools offered. */
function requestKey(request: ChatRequest): string {
  return JSON.stringify({ model: request.model, messages: request.messages, tools: request.tools ?? null });
}
