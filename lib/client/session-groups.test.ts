import { describe, expect, it } from "vitest";
import type { SessionSummary } from "@/lib/foundation/protocol/sessions";
import { dayGroup, sessionDate, sessionGroups } from "./session-groups";

const now = new Date("2026-11-27T10:00:00Z");
const row = (id: string, title: string | null, updatedAt: string): SessionSummary => ({ id, title, state: "finished", createdAt: updatedAt, updatedAt });

describe("sessionGroups", () => {
  const sessions = [
    row("a", "How many coins?", "2026-11-27T09:00:00Z"),
    row("empty", null, "2026-11-27T09:30:00Z"),
    row("b", "Read the café menu", "2026-11-26T20:00:00Z"),
    row("c", "How many coins?", "2026-10-01T08:00:00Z"),
    row("d", "Count the cells", "2026-11-27T08:00:00Z"),
  ];

  it("leaves out chats never used, and groups the rest by day, newest first", () => {
    const groups = sessionGroups(sessions, { query: "", now, offsetMinutes: 0 });
    expect(groups.map((g) => [g.label, g.sessions.map((s) => s.id)])).toEqual([
      ["Today", ["a", "d"]],
      ["Yesterday", ["b"]],
      ["Earlier", ["c"]],
    ]);
  });

  it("filters by every word of the search, ignoring case and accents", () => {
    const ids = (query: string) => sessionGroups(sessions, { query, now, offsetMinutes: 0 }).flatMap((g) => g.sessions.map((s) => s.id));
    expect(ids("COINS")).toEqual(["a", "c"]);
    expect(ids("cafe menu")).toEqual(["b"]);
    expect(ids("coins cells")).toEqual([]);
    expect(ids("  ")).toEqual(["a", "d", "b", "c"]);
  });
});

describe("days in the person's time zone", () => {
  it("puts a late-evening chat on the local day", () => {
    // 23:30 UTC on the 26th is already the 27th in UTC+1.
    expect(dayGroup("2026-11-26T23:30:00Z", now, 0)).toBe("Yesterday");
    expect(dayGroup("2026-11-26T23:30:00Z", now, 60)).toBe("Today");
    expect(dayGroup("2026-11-25T12:00:00Z", now, 0)).toBe("Earlier");
  });

  it("says when, briefly", () => {
    expect(sessionDate("2026-11-27T09:05:00Z", now, 60)).toBe("10:05");
    expect(sessionDate("2026-11-26T09:05:00Z", now, 0)).toBe("Yesterday");
    expect(sessionDate("2026-10-01T09:05:00Z", now, 0)).toBe("1 Oct");
    expect(sessionDate("2025-10-01T09:05:00Z", now, 0)).toBe("1 Oct 2025");
  });
});
