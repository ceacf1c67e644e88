/**
 * Loop detection over an agent's history, with OpenHands' patterns (peers.md
 * B.8) so that a history judged stuck there is judged stuck here.
 *
 * Indices returned are positions in the filtered window (user messages and
 * null events removed) plus the window's offset, which is what OpenHands
 * reports as `loop_start_idx`.
 *
 * The fifth upstream pattern, `context_window_error`, looks for repeated
 * condensation observations. Argus has no condensation observation kind, so
 * that loop cannot occur and is not checked.
 */
import {
  isAction,
  isObservation,
  type ActionEvent,
  type ArgusEvent,
  type ObservationEvent,
} from "@/lib/foundation/protocol/events";

type LoopType =
  | "repeating_action_observation"
  | "repeating_action_error"
  | "monologue"
  | "repeating_action_observation_pattern";

export interface StuckAnalysis {
  loopType: LoopType;
  repeatTimes: number;
  loopStartIdx: number;
}

// ---------------------------------------------------------------------------
// Equality

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  return keys.length === Object.keys(rb).length && keys.every((k) => Object.hasOwn(rb, k) && jsonEqual(ra[k], rb[k]));
}

/**
 * Same kind and same payload. Bookkeeping (id, time, source, cause, run,
 * agent, metrics, timeout) is ignored: a repeated step is a repeated step
 * whoever logged it and when.
 */
export function sameStep(a: ArgusEvent, b: ArgusEvent): boolean {
  if (isAction(a) && isAction(b)) return a.action === b.action && jsonEqual(a.args, b.args);
  if (isObservation(a) && isObservation(b)) {
    return a.observation === b.observation && a.content === b.content && jsonEqual(a.extras, b.extras);
  }
  return false;
}

const EDIT_CALL = "edit_file_by_replace(";

/** `sameStep`, loosened where output legitimately varies between repeats. */
function equivalentStep(a: ArgusEvent, b: ArgusEvent): boolean {
  if (isAction(a) && isAction(b) && a.action === "run_ipython" && b.action === "run_ipython") {
    // Edit calls differ in the replacement text while targeting the same spot.
    if (a.args.code.includes(EDIT_CALL) && b.args.code.includes(EDIT_CALL)) {
      const linesA = a.args.code.split("\n");
      const linesB = b.args.code.split("\n");
      return linesA.length > 2 && jsonEqual(linesA.slice(0, 3), linesB.slice(0, 3));
    }
  }
  if (isObservation(a) && isObservation(b) && a.observation === "run" && b.observation === "run") {
    // Output and pid change run to run; the command and its outcome are what repeat.
    return a.extras.command === b.extras.command && a.extras.metadata.exit_code === b.extras.metadata.exit_code;
  }
  return sameStep(a, b);
}

function allEquivalent(events: readonly ArgusEvent[]): boolean {
  const [first, ...rest] = events;
  return first !== undefined && rest.every((e) => equivalentStep(first, e));
}

// ---------------------------------------------------------------------------
// Window

function isUserMessage(e: ArgusEvent): boolean {
  return isAction(e) && e.action === "message" && e.source === "user";
}

function isNull(e: ArgusEvent): boolean {
  return isAction(e) ? e.action === "null" : e.observation === "null";
}

interface Window {
  events: ArgusEvent[];
  offset: number;
}

function stuckWindow(history: readonly ArgusEvent[], headless: boolean): Window {
  let start = 0;
  if (!headless) {
    // Interactive: the person just spoke, so only what came after counts.
    start = history.findLastIndex(isUserMessage) + 1;
  }
  const events = history.slice(start).filter((e) => !isUserMessage(e) && !isNull(e));
  return { events, offset: start };
}

/** The last `n` actions and last `n` observations, newest first. */
function lastSteps(events: readonly ArgusEvent[], n: number): { actions: ActionEvent[]; observations: ObservationEvent[] } {
  const actions: ActionEvent[] = [];
  const observations: ObservationEvent[] = [];
  for (let i = events.length - 1; i >= 0 && (actions.length < n || observations.length < n); i--) {
    const e = events[i];
    if (e === undefined) continue;
    if (isAction(e)) {
      if (actions.length < n) actions.push(e);
    } else if (observations.length < n) {
      observations.push(e);
    }
  }
  return { actions, observations };
}

/**
 * Upstream locates the loop with `list.index`, which matches by equality, so
 * the start is the first event equal to the oldest collected action — possibly
 * earlier than the loop itself. Kept that way so the indices agree.
 */
function firstEqualIndex(events: readonly ArgusEvent[], target: ArgusEvent): number {
  return events.findIndex((e) => sameStep(e, target));
}

// ---------------------------------------------------------------------------
// Patterns

function oldestStartIdx(w: Window, actions: readonly ActionEvent[]): number {
  const oldest = actions[actions.length - 1];
  return oldest === undefined ? w.offset : firstEqualIndex(w.events, oldest) + w.offset;
}

function repeatingActionObservation(w: Window, actions: ActionEvent[], observations: ObservationEvent[]): StuckAnalysis | null {
  if (actions.length < 4 || observations.length < 4) return null;
  if (!allEquivalent(actions) || !allEquivalent(observations)) return null;
  return { loopType: "repeating_action_observation", repeatTimes: 4, loopStartIdx: oldestStartIdx(w, actions) };
}

const FOOTER_CWD = "[Jupyter current working directory:";
const FOOTER_PYTHON = "[Jupyter Python interpreter:";
const UNTERMINATED = "SyntaxError: unterminated string literal (detected at line";
const SAME_LINE_SYNTAX_ERRORS = ["SyntaxError: invalid syntax. Perhaps you forgot a comma?", "SyntaxError: incomplete input"];

function outputLines(o: ObservationEvent): string[] {
  return o.content.trim().split("\n");
}

function hasFooter(lines: readonly string[]): boolean {
  return (lines.at(-2) ?? "").startsWith(FOOTER_CWD) && (lines.at(-1) ?? "").startsWith(FOOTER_PYTHON);
}

/** The same unterminated-string error, reported on the same line, three times. */
function sameUnterminatedString(observations: readonly ObservationEvent[]): boolean {
  const errorLines: string[] = [];
  for (const o of observations) {
    const lines = outputLines(o);
    if (lines.length < 3 || !hasFooter(lines)) return false;
    const line = lines.at(-3) ?? "";
    if (line.includes(UNTERMINATED)) errorLines.push(line);
  }
  return errorLines.length === 3 && new Set(errorLines).size === 1;
}

/** The same syntax error from the same cell line, three times. */
function sameSyntaxError(observations: readonly ObservationEvent[], message: string): boolean {
  const firstLines: string[] = [];
  const errorLines: string[] = [];
  for (const o of observations) {
    const lines = outputLines(o);
    // A real traceback of this kind has at least six lines.
    if (lines.length < 6) return false;
    const first = (lines[0] ?? "").trim();
    if (!first.startsWith("Cell In[1], line")) return false;
    firstLines.push(first);
    const line = lines.at(-3) ?? "";
    if (hasFooter(lines) && line.includes(message)) errorLines.push(line);
  }
  return new Set(firstLines).size === 1 && errorLines.length === 3 && new Set(errorLines).size === 1;
}

function repeatingSyntaxError(observations: readonly ObservationEvent[]): boolean {
  if (!observations.every((o) => o.observation === "run_ipython")) return false;
  return sameUnterminatedString(observations) || SAME_LINE_SYNTAX_ERRORS.some((m) => sameSyntaxError(observations, m));
}

function repeatingActionError(w: Window, actions: ActionEvent[], observations: ObservationEvent[]): StuckAnalysis | null {
  if (actions.length < 3 || observations.length < 3) return null;
  if (!allEquivalent(actions.slice(0, 3))) return null;
  const lastThree = observations.slice(0, 3);
  const allErrors = lastThree.every((o) => o.observation === "error");
  if (!allErrors && !repeatingSyntaxError(lastThree)) return null;
  return { loopType: "repeating_action_error", repeatTimes: 3, loopStartIdx: oldestStartIdx(w, actions) };
}

/** The agent says the same thing three times without anything happening in between. */
function monologue(w: Window): StuckAnalysis | null {
  const said: number[] = [];
  w.events.forEach((e, i) => {
    if (isAction(e) && e.action === "message" && e.source === "agent") said.push(i);
  });
  if (said.length < 3) return null;
  const [first, , last] = said.slice(-3) as [number, number, number];
  const lastThree = said.slice(-3).map((i) => w.events[i] as ArgusEvent);
  if (!lastThree.every((e) => sameStep(lastThree[0] as ArgusEvent, e))) return null;
  if (w.events.slice(first + 1, last).some(isObservation)) return null;
  return { loopType: "monologue", repeatTimes: 3, loopStartIdx: first + w.offset };
}

/** A-B-A-B-A-B ping-pong over the last six actions and observations. */
function alternatingPattern(w: Window): StuckAnalysis | null {
  if (w.events.length < 6) return null;
  const { actions, observations } = lastSteps(w.events, 6);
  if (actions.length < 6 || observations.length < 6) return null;
  const alternates = (xs: readonly ArgusEvent[]) =>
    allEquivalent([xs[0], xs[2], xs[4]] as ArgusEvent[]) && allEquivalent([xs[1], xs[3], xs[5]] as ArgusEvent[]);
  if (!alternates(actions) || !alternates(observations)) return null;
  return { loopType: "repeating_action_observation_pattern", repeatTimes: 3, loopStartIdx: oldestStartIdx(w, actions) };
}

/**
 * Returns how the agent is looping, or null. `headless` (no person watching)
 * judges the whole history; otherwise only what followed the person's last
 * message, since a new message is a chance to break the loop.
 */
export function detectStuck(history: readonly ArgusEvent[], options: { headless: boolean }): StuckAnalysis | null {
  const w = stuckWindow(history, options.headless);
  if (w.events.length < 3) return null;
  const { actions, observations } = lastSteps(w.events, 4);
  return (
    repeatingActionObservation(w, actions, observations) ??
    repeatingActionError(w, actions, observations) ??
    monologue(w) ??
    alternatingPattern(w)
  );
}
