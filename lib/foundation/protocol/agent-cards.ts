/**
 * Argus's agents as the wire, the chat, the status line and the model settings know them: one
 * card per `agents/<name>/` folder, whose `descriptor.ts` adds the server side (tools, how to
 * make the agent, what its finish does) on top of its card. Pure data, safe for the browser
 * bundle. The runtime and the client read these facts and never name an agent themselves;
 * `agents/registry.test.ts` checks that every card has a descriptor and every descriptor a card.
 */

/** How an agent's work shows in the chat. */
export type AgentShows =
  /** Its messages are replies to the person. */
  | "reply"
  /** Its cells show as numbered step cards (thinking, code, output). */
  | "cells"
  /** Its moves on web pages show as browser steps with screenshots (the Browser tab). */
  | "pages";

/** What the chat shows when the agent finishes. */
export type AgentFinishShows = "nothing" | "plan" | "final_code" | "browser_done";

export interface AgentCard {
  /** Its name on the wire (events' `agent`, drafts, run state), its chat role and its model role. */
  readonly name: string;
  /** How the chat and the status line name it ("Planner is working", "Coder · test run 2"). */
  readonly label: string;
  /** The icon of its step cards and live drafts (the client maps it to a picture). */
  readonly icon: "terminal" | "flask" | null;
  /** Every run starts with this agent (exactly one card says so). */
  readonly root: boolean;
  /** A chat cannot work without its model; an optional agent is offered only when its model is named. */
  readonly modelRequired: boolean;
  /** Where its cells run: the session's live notebook, a fresh isolated kernel, or it runs none. */
  readonly cells: "notebook" | "isolated" | null;
  /** Its steps are the run's turns ("turn 2 of 10", limited by ARGUS_PLANNER_MAX_TURNS). */
  readonly countsTurns: boolean;
  readonly shows: AgentShows;
  readonly finishShows: AgentFinishShows;
  /** The heading of its step card number `index` (from 1); only for agents that show cells. */
  readonly stepTitle?: (index: number) => string;
}

/** In the order the settings and the status page list them. */
export const AGENT_CARDS = [
  {
    name: "conversation",
    label: "Argus",
    icon: null,
    root: true,
    modelRequired: true,
    cells: null,
    countsTurns: false,
    shows: "reply",
    finishShows: "nothing",
  },
  {
    name: "planner",
    label: "Planner",
    icon: "terminal",
    root: false,
    modelRequired: true,
    cells: "notebook",
    countsTurns: true,
    shows: "cells",
    finishShows: "plan",
    stepTitle: (index: number) => `Planner · turn ${index}`,
  },
  {
    name: "coder",
    label: "Coder",
    icon: "flask",
    root: false,
    modelRequired: true,
    cells: "isolated",
    countsTurns: false,
    shows: "cells",
    finishShows: "final_code",
    stepTitle: (index: number) => (index === 1 ? "Coder · test run" : `Coder · test run ${index}`),
  },
  {
    name: "browser",
    label: "Browser",
    icon: null,
    root: false,
    modelRequired: false,
    cells: null,
    countsTurns: false,
    shows: "pages",
    finishShows: "browser_done",
  },
] as const satisfies readonly AgentCard[];

/** The name of an Argus agent. */
export type AgentKind = (typeof AGENT_CARDS)[number]["name"];

export const AGENT_KINDS: readonly AgentKind[] = AGENT_CARDS.map((c) => c.name);

/** The producers of events that are not agents. */
export const NON_AGENT_PRODUCERS = ["user", "system"] as const;

/** A card of one of Argus's agents (its name is one of them). */
export type KnownAgentCard = AgentCard & { readonly name: AgentKind };

const BY_NAME: ReadonlyMap<string, KnownAgentCard> = new Map(AGENT_CARDS.map((c) => [c.name, c]));

/** The card of an agent, or undefined for anything else ("user", "system", an unknown name). */
export function agentCard(name: string | null | undefined): KnownAgentCard | undefined {
  return name == null ? undefined : BY_NAME.get(name);
}

function only(test: (c: AgentCard) => boolean, what: string): AgentKind {
  const found = AGENT_CARDS.filter(test);
  if (found.length !== 1) throw new Error(`exactly one agent card must be ${what}, found ${found.length}`);
  return found[0]!.name;
}

/** The agent every run starts with. */
export const ROOT_AGENT: AgentKind = only((c) => c.root, "the root");
/** The agent whose cells run in the session's notebook (cells of any other producer show as its too). */
export const NOTEBOOK_AGENT: AgentKind = only((c) => c.cells === "notebook", "the notebook's");
/** The agent that works on web pages (its moves' observations are its). */
export const BROWSING_AGENT: AgentKind = only((c) => c.shows === "pages", "the browsing one");
/** The agent whose finish shows as `finish` (a plan card, the final code). */
export function agentShowing(finish: Exclude<AgentFinishShows, "nothing">): AgentKind {
  return only((c) => c.finishShows === finish, `the one whose finish shows ${finish}`);
}
/** The agent whose steps are the run's turns. */
export const TURNS_AGENT: AgentKind = only((c) => c.countsTurns, "the one counting turns");

/** Model roles that are not agents: the kernel's model-backed tools (vqa, describe…) and the tool judge. */
const HELPER_ROLES = ["vqa", "judge"] as const;

export type ModelRole = AgentKind | (typeof HELPER_ROLES)[number];

/** Every model role, in the order status pages list them: required agents, helpers, optional agents. */
export const MODEL_ROLES: readonly ModelRole[] = [
  ...AGENT_CARDS.filter((c) => c.modelRequired).map((c) => c.name),
  ...HELPER_ROLES,
  ...AGENT_CARDS.filter((c) => !c.modelRequired).map((c) => c.name),
];

/** The roles a chat cannot work without; an optional agent's is not among them. */
export const REQUIRED_ROLES: readonly ModelRole[] = MODEL_ROLES.filter((role) => agentCard(role)?.modelRequired !== false);
