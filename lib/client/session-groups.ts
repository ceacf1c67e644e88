import type { SessionSummary } from "@/lib/foundation/protocol/sessions";

/**
 * The sidebar's list: chats that were used (a chat gets its title from its first question, so an
 * untitled one never had a message), filtered by the search box, grouped by the day they were
 * last active. Pure: `now` and the time zone offset come in, so the days are unit-tested.
 */
export type DayGroup = "Today" | "Yesterday" | "Earlier";

export interface SessionGroup {
  label: DayGroup;
  sessions: SessionSummary[];
}

const DAY_MS = 86_400_000;

/** Days since the local midnight of `iso`'s day, in the zone `offsetMinutes` east of UTC. */
function localDay(ms: number, offsetMinutes: number): number {
  return Math.floor((ms + offsetMinutes * 60_000) / DAY_MS);
}

export function dayGroup(iso: string, now: Date, offsetMinutes: number): DayGroup {
  const ago = localDay(now.getTime(), offsetMinutes) - localDay(Date.parse(iso), offsetMinutes);
  return ago <= 0 ? "Today" : ago === 1 ? "Yesterday" : "Earlier";
}

/** Folds case and accents, so "cafe" finds "Café". */
const fold = (s: string) => s.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

/** The chats to list, newest first, in day groups (empty groups left out). */
export function sessionGroups(sessions: readonly SessionSummary[], opts: { query: string; now: Date; offsetMinutes: number }): SessionGroup[] {
  const words = fold(opts.query).split(/\s+/).filter(Boolean);
  const shown = sessions
    .filter((s) => s.title !== null)
    .filter((s) => words.every((w) => fold(s.title ?? "").includes(w)))
    .sort((a, b) => (a.updatedAt === b.updatedAt ? 0 : a.updatedAt < b.updatedAt ? 1 : -1));
  const groups: SessionGroup[] = [];
  for (const s of shown) {
    const label = dayGroup(s.updatedAt, opts.now, opts.offsetMinutes);
    const last = groups.at(-1);
    if (last?.label === label) last.sessions.push(s);
    else groups.push({ label, sessions: [s] });
  }
  return groups;
}

/** When a chat was last active, short: "14:05" today, "Yesterday", "3 Nov" this year, "3 Nov 2025" before. */
export function sessionDate(iso: string, now: Date, offsetMinutes: number): string {
  const at = new Date(Date.parse(iso) + offsetMinutes * 60_000);
  const today = new Date(now.getTime() + offsetMinutes * 60_000);
  const group = dayGroup(iso, now, offsetMinutes);
  if (group === "Today") return `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  if (group === "Yesterday") return "Yesterday";
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][at.getUTCMonth()]!;
  const year = at.getUTCFullYear() === today.getUTCFullYear() ? "" : ` ${at.getUTCFullYear()}`;
  return `${at.getUTCDate()} ${month}${year}`;
}
