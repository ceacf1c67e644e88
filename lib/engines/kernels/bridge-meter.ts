import { sumUsage, ZERO_USAGE, type Usage } from "@/lib/engines/llm/usage";

/** What the run still allows, asked at every bridge call (the run's own budgets, not the cell's). */
export interface RunAllowance {
  /** Tokens the run may still spend, not counting this cell's bridge calls. */
  tokensLeft(): number;
  /** Milliseconds left on the run's wall clock. */
  msLeft(): number;
}

/** A bridge call refused by a budget; its message is shown to the cell (and so to the agent). */
export class BridgeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BridgeRefused";
  }
}

const DEFAULT_BRIDGE_CALLS_PER_CELL = 50;

/**
 * Meters one cell's calls back into the server (vqa, describe,
 * get_tool_for_task…). A cell is model-written code: `while True: vqa(...)`
 * must neither run forever nor spend without limit. So every call is admitted
 * against a per-cell count and the run's token and wall-clock budgets, and
 * every model call it makes is charged here; the controller puts the total on
 * the cell's observation, where it counts in the run's metrics like any step.
 */
export class BridgeMeter {
  private calls = 0;
  private spent: Usage = ZERO_USAGE;

  constructor(
    private readonly maxCalls: number = DEFAULT_BRIDGE_CALLS_PER_CELL,
    private readonly run: RunAllowance | null = null,
  ) {}

  /** Before a call: counts it, or refuses with a reason worded for the agent. */
  admit(): void {
    if (this.calls >= this.maxCalls) {
      throw new BridgeRefused(
        `This cell already made ${this.maxCalls} calls to model-backed tools, the most one cell may make. Work with the answers you have, or continue in a new cell.`,
      );
    }
    if (this.run) {
      if (this.run.msLeft() <= 0) throw new BridgeRefused("The run's time budget is used up, so no more model-backed tool calls can be made.");
      if (this.run.tokensLeft() - this.tokens <= 0) throw new BridgeRefused("The run's token budget is used up, so no more model-backed tool calls can be made.");
    }
    this.calls++;
  }

  /** After a model call made for the cell. */
  charge(usage: Usage): void {
    this.spent = sumUsage(this.spent, usage);
  }

  get usage(): Usage {
    return this.spent;
  }

  get callCount(): number {
    return this.calls;
  }

  private get tokens(): number {
    return this.spent.inputTokens + this.spent.outputTokens;
  }
}
