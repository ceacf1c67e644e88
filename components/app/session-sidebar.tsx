"use client";

import { useState } from "react";
import type { SessionSummary } from "@/lib/client/api";

interface SidebarProps {
  sessions: SessionSummary[];
  currentId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
}

/** Past sessions (titled by their first message), with new, rename and delete. */
export function SessionSidebar(p: SidebarProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [draft, setDraft] = useState("");

  return (
    <nav aria-label="Sessions" className="flex h-full flex-col gap-2 p-3" data-testid="session-sidebar">
      <button
        type="button"
        onClick={p.onNew}
        data-testid="new-session"
        className="rounded-md border border-zinc-300 px-3 py-2 text-left text-sm font-medium hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        + New chat
      </button>
      <ul className="flex-1 space-y-1 overflow-y-auto">
        {p.sessions.length === 0 && <li className="px-2 text-sm text-zinc-500">No chats yet.</li>}
        {p.sessions.map((s) => (
          <li key={s.id} className={`group rounded-md ${s.id === p.currentId ? "bg-zinc-200 dark:bg-zinc-800" : ""}`}>
            {editing === s.id ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (draft.trim()) p.onRename(s.id, draft.trim());
                  setEditing(null);
                }}
              >
                <label className="sr-only" htmlFor={`rename-${s.id}`}>
                  New title
                </label>
                <input
                  id={`rename-${s.id}`}
                  autoFocus
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  onBlur={() => setEditing(null)}
                  onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                  className="w-full rounded border border-sky-500 bg-white px-2 py-1 text-sm dark:bg-zinc-900"
                />
              </form>
            ) : (
              <div className="flex items-center">
                <button
                  type="button"
                  onClick={() => p.onSelect(s.id)}
                  aria-current={s.id === p.currentId ? "page" : undefined}
                  className="min-w-0 flex-1 truncate px-2 py-1.5 text-left text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
                  title={s.title ?? "New chat"}
                >
                  {s.title ?? "New chat"}
                </button>
                {confirming === s.id ? (
                  <span className="flex gap-1 pr-1 text-xs">
                    <button type="button" className="rounded bg-red-600 px-1.5 py-0.5 text-white" onClick={() => (p.onDelete(s.id), setConfirming(null))}>
                      Delete
                    </button>
                    <button type="button" className="rounded px-1.5 py-0.5" onClick={() => setConfirming(null)}>
                      Keep
                    </button>
                  </span>
                ) : (
                  <span className="flex gap-0.5 pr-1 opacity-60 group-hover:opacity-100 group-focus-within:opacity-100">
                    <button
                      type="button"
                      aria-label={`Rename ${s.title ?? "chat"}`}
                      className="rounded px-1 text-xs hover:bg-zinc-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:hover:bg-zinc-700"
                      onClick={() => (setDraft(s.title ?? ""), setEditing(s.id))}
                    >
                      ✎
                    </button>
                    <button
                      type="button"
                      aria-label={`Delete ${s.title ?? "chat"}`}
                      className="rounded px-1 text-xs hover:bg-zinc-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:hover:bg-zinc-700"
                      onClick={() => setConfirming(s.id)}
                    >
                      🗑
                    </button>
                  </span>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
