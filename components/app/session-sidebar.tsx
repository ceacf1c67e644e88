"use client";

import { MessageSquare, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { IconButton } from "@/components/ui/icon-button";
import { Input } from "@/components/ui/input";
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
    <nav aria-label="Sessions" className="flex h-full flex-col gap-3 p-3" data-testid="session-sidebar">
      <Button variant="outline" onClick={p.onNew} data-testid="new-session" className="justify-start">
        <Plus aria-hidden="true" />
        New chat
      </Button>
      <p className="px-2 text-xs font-medium text-muted-foreground">Chats</p>
      <ul className="-mt-2 flex-1 space-y-0.5 overflow-y-auto">
        {p.sessions.length === 0 && <li className="px-2 text-sm text-muted-foreground">No chats yet.</li>}
        {p.sessions.map((s) => {
          const current = s.id === p.currentId;
          const title = s.title ?? "New chat";
          return (
            <li key={s.id} className={cn("group rounded-md", current ? "bg-accent" : "hover:bg-accent/60")}>
              {editing === s.id ? (
                <form
                  className="p-0.5"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (draft.trim()) p.onRename(s.id, draft.trim());
                    setEditing(null);
                  }}
                >
                  <label className="sr-only" htmlFor={`rename-${s.id}`}>
                    New title
                  </label>
                  <Input
                    id={`rename-${s.id}`}
                    autoFocus
                    value={draft}
                    onChange={(e) => setDraft(e.target.value)}
                    onBlur={() => setEditing(null)}
                    onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                  />
                </form>
              ) : (
                <div className="flex items-center">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => p.onSelect(s.id)}
                    aria-current={current ? "page" : undefined}
                    className={cn(
                      "focus-ring-inset min-w-0 flex-1 justify-start px-2 hover:bg-transparent",
                      current ? "text-foreground" : "font-normal text-muted-foreground hover:text-foreground",
                    )}
                    title={title}
                  >
                    <MessageSquare aria-hidden="true" className="opacity-60" />
                    <span className="truncate">{title}</span>
                  </Button>
                  {confirming === s.id ? (
                    <span className="flex gap-1 pr-1">
                      <Button variant="destructive" size="xs" onClick={() => (p.onDelete(s.id), setConfirming(null))}>
                        Delete
                      </Button>
                      <Button variant="ghost" size="xs" onClick={() => setConfirming(null)}>
                        Keep
                      </Button>
                    </span>
                  ) : (
                    <span className="flex pr-1 opacity-60 group-focus-within:opacity-100 group-hover:opacity-100">
                      <IconButton label={`Rename ${s.title ?? "chat"}`} tooltip="Rename" size="icon-xs" onClick={() => (setDraft(s.title ?? ""), setEditing(s.id))}>
                        <Pencil aria-hidden="true" />
                      </IconButton>
                      <IconButton
                        label={`Delete ${s.title ?? "chat"}`}
                        tooltip="Delete"
                        size="icon-xs"
                        onClick={() => setConfirming(s.id)}
                        className="hover:text-destructive"
                      >
                        <Trash2 aria-hidden="true" />
                      </IconButton>
                    </span>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
