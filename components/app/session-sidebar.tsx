"use client";

import { Plus, Search } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { SessionSummary } from "@/lib/client/api";
import { sessionDate, sessionGroups } from "@/lib/client/session-groups";
import { SessionRow } from "./session-row";

interface SidebarProps {
  sessions: SessionSummary[];
  currentId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
}

/**
 * The chats of this browser: only those that were used (titled by their first question), grouped by
 * the day they were last active, with their dates and a search box that filters by title.
 */
export function SessionSidebar(p: SidebarProps) {
  const [query, setQuery] = useState("");
  // The person's own clock and time zone decide what "Today" is (the list is fetched in the browser).
  const now = new Date();
  const offset = -now.getTimezoneOffset();
  const groups = useMemo(() => sessionGroups(p.sessions, { query, now: new Date(), offsetMinutes: offset }), [p.sessions, query, offset]);
  const used = p.sessions.some((s) => s.title !== null);

  return (
    <nav aria-label="Sessions" className="flex h-full flex-col gap-3 p-3" data-testid="session-sidebar">
      <Button variant="outline" onClick={p.onNew} data-testid="new-session" className="justify-start">
        <Plus aria-hidden="true" />
        New chat
      </Button>
      {used && (
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2 size-3.5 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            aria-label="Search chats"
            placeholder="Search chats"
            data-testid="session-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="pl-7"
          />
        </div>
      )}
      <div className="-mx-1 flex-1 space-y-3 overflow-y-auto px-1">
        {!used && <p className="px-2 text-sm text-muted-foreground">No chats yet.</p>}
        {used && groups.length === 0 && (
          <p role="status" className="px-2 text-sm text-muted-foreground">
            No chat titles match “{query.trim()}”.
          </p>
        )}
        {groups.map((g) => (
          <section key={g.label} aria-label={g.label} data-testid="session-group">
            <h2 className="mb-1 px-2 text-xs font-medium text-muted-foreground">{g.label}</h2>
            <ul className="space-y-0.5">
              {g.sessions.map((s) => (
                <SessionRow
                  key={s.id}
                  session={s}
                  current={s.id === p.currentId}
                  when={sessionDate(s.updatedAt, now, offset)}
                  onSelect={() => p.onSelect(s.id)}
                  onRename={(title) => p.onRename(s.id, title)}
                  onDelete={() => p.onDelete(s.id)}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}
