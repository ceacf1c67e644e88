"use client";

import { Download, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { IconButton } from "@/components/ui/icon-button";
import { Input } from "@/components/ui/input";
import { Tooltip } from "@/components/ui/tooltip";
import type { SessionSummary } from "@/lib/client/api";

interface SessionRowProps {
  session: SessionSummary;
  current: boolean;
  /** When it was last active, short ("14:05", "Yesterday", "3 Nov"). */
  when: string;
  onSelect: () => void;
  onRename: (title: string) => void;
  onDelete: () => void;
}

/** One chat in the sidebar: its title (whole on hover) and date, with rename, export and delete. */
export function SessionRow({ session: s, current, when, onSelect, onRename, onDelete }: SessionRowProps) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState("");
  const title = s.title ?? "New chat";

  if (editing) {
    return (
      <li className="rounded-md bg-accent">
        <form
          className="p-0.5"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) onRename(draft.trim());
            setEditing(false);
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
            onBlur={() => setEditing(false)}
            onKeyDown={(e) => e.key === "Escape" && setEditing(false)}
          />
        </form>
      </li>
    );
  }

  return (
    <li data-testid="session-row" className={cn("group rounded-md", current ? "bg-accent" : "hover:bg-accent/60")}>
      <div className="flex items-center">
        <Button
          variant="ghost"
          size="sm"
          onClick={onSelect}
          aria-current={current ? "page" : undefined}
          className={cn(
            "focus-ring-inset h-auto min-w-0 flex-1 flex-col items-start gap-0 px-2 py-1.5 hover:bg-transparent",
            current ? "text-foreground" : "font-normal text-muted-foreground hover:text-foreground",
          )}
          // The whole title, however long, on hover; the accessible name stays the title alone.
          title={title}
          aria-label={title}
        >
          <span className="w-full truncate text-left">{title}</span>
          <span aria-hidden="true" data-testid="session-date" className="text-[0.7rem] font-normal text-muted-foreground">
            {when}
          </span>
        </Button>
        {confirming ? (
          <span className="flex gap-1 pr-1">
            <Button variant="destructive" size="xs" onClick={() => (onDelete(), setConfirming(false))}>
              Delete
            </Button>
            <Button variant="ghost" size="xs" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </span>
        ) : (
          <span className="flex pr-1 opacity-60 group-focus-within:opacity-100 group-hover:opacity-100">
            <IconButton label={`Rename ${title}`} tooltip="Rename" size="icon-xs" onClick={() => (setDraft(s.title ?? ""), setEditing(true))}>
              <Pencil aria-hidden="true" />
            </IconButton>
            <Tooltip content="Export as Markdown (.zip with the pictures)">
              <Button asChild variant="ghost" size="icon-xs">
                <a href={`/api/sessions/${encodeURIComponent(s.id)}/markdown`} download aria-label={`Export ${title}`} data-testid="export-markdown">
                  <Download aria-hidden="true" />
                </a>
              </Button>
            </Tooltip>
            <IconButton label={`Delete ${title}`} tooltip="Delete" size="icon-xs" onClick={() => setConfirming(true)} className="hover:text-destructive">
              <Trash2 aria-hidden="true" />
            </IconButton>
          </span>
        )}
      </div>
    </li>
  );
}
