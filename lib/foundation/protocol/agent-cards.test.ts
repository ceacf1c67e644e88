import { describe, expect, it } from "vitest";
import { AGENT_CARDS, AGENT_KINDS, agentCard, BROWSING_AGENT, MODEL_ROLES, NOTEBOOK_AGENT, REQUIRED_ROLES, ROOT_AGENT, TURNS_AGENT } from "./agent-cards";
import { AGENT_MESSAGE_ROLES } from "./agent-message";
import { AgentNameSchema } from "./event-base";

describe("the agent cards", () => {
  it("name each agent once, and the wire's names, chat roles and model roles come from them", () => {
    expect(new Set(AGENT_KINDS).size).toBe(AGENT_CARDS.length);
    expect(AgentNameSchema.options).toEqual([...AGENT_KINDS, "user", "system"]);
    for (const name of AGENT_KINDS) {
      expect(AGENT_MESSAGE_ROLES).toContain(name);
      expect(MODEL_ROLES).toContain(name);
    }
  });

  it("single out the root, the notebook's agent, the one counting turns and the browsing one", () => {
    for (const [kind, test] of [
      [ROOT_AGENT, (c: (typeof AGENT_CARDS)[number]) => c.root],
      [NOTEBOOK_AGENT, (c: (typeof AGENT_CARDS)[number]) => c.cells === "notebook"],
      [TURNS_AGENT, (c: (typeof AGENT_CARDS)[number]) => c.countsTurns],
      [BROWSING_AGENT, (c: (typeof AGENT_CARDS)[number]) => c.shows === "pages"],
    ] as const) {
      expect(AGENT_CARDS.filter(test).map((c) => c.name)).toEqual([kind]);
    }
  });

  it("give every agent that shows cells a step title, and only cells agents one", () => {
    for (const card of AGENT_CARDS) {
      const title = agentCard(card.name)?.stepTitle;
      expect(title !== undefined, card.name).toBe(card.shows === "cells");
      if (title) expect(title(2)).toMatch(new RegExp(`^${card.label} · .*2$`));
    }
  });

  it("know no card for the person, the system or an unknown name", () => {
    for (const name of ["user", "system", "someone", null, undefined]) expect(agentCard(name)).toBeUndefined();
  });

  it("list model roles required first, then the helpers, then optional agents", () => {
    const optional = AGENT_CARDS.filter((c) => !c.modelRequired).map((c) => c.name);
    expect(MODEL_ROLES.slice(-optional.length)).toEqual(optional);
    expect(REQUIRED_ROLES).toEqual(MODEL_ROLES.filter((r) => !(optional as string[]).includes(r)));
    expect(REQUIRED_ROLES).toEqual(expect.arrayContaining(["vqa", "judge", ROOT_AGENT]));
  });
});
