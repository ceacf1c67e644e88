import { describe, expect, it } from "vitest";
import type { ArgusCore } from "./argus-core";
import { AREA_MEMBERS, pickArea, type AreaName } from "./areas";

// Every member of the core, each a distinct value, so what an area carries can be told apart.
const MEMBERS = [...new Set(Object.values(AREA_MEMBERS).flat()), "model", "bridge", "jupyter", "start", "close"];
const core = Object.fromEntries(MEMBERS.map((m) => [m, { member: m }])) as unknown as ArgusCore;

describe("pickArea", () => {
  it("gives each area exactly its listed members, the core's own values", () => {
    for (const area of Object.keys(AREA_MEMBERS) as AreaName[]) {
      const picked = pickArea(core, area) as Record<string, unknown>;
      expect(Object.keys(picked).sort()).toEqual([...new Set(AREA_MEMBERS[area])].sort());
      for (const member of AREA_MEMBERS[area]) expect(picked[member]).toBe(core[member]);
    }
  });

  it("leaves out what an area's handlers do not use", () => {
    const status = pickArea(core, "status") as Record<string, unknown>;
    expect(status.db).toBeUndefined();
    expect(status.close).toBeUndefined();
    const sessions = pickArea(core, "sessions") as Record<string, unknown>;
    expect(sessions.vision).toBeUndefined();
    expect(sessions.model).toBeUndefined();
    expect(sessions.start).toBeUndefined();
  });
});
