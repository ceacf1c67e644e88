"use client";

import { Download, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { IconButton } from "@/components/ui/icon-button";
import { Input } from "@/components/ui/input";
import { Tooltip } from "@/components/ui/tooltip";
import type { SessionSummary } from "@/lib/client/api";

/** Where the actions show (see the row): `group-hover` applies only where the pointer can hover. */
const ACTIONS_VISIBILITY =
  "opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 group-data-[actions=always]:opacity-100 [@media(hover:none)]:opacity-100";
/** The title stops short of the three action buttons exactly when they show. */
const ROOM_FOR_ACTIONS =
  "group-hover:pr-[calc(3*var(--spacing-control-xs))] group-focus-within:pr-[calc(3*var(--spacing-control-xs))] group-data-[actions=always]:pr-[calc(3*var(--spacing-control-xs))] [@media(hover:none)]:pr-[calc(3*var(--spacing-control-xs))]";

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

  // The row's actions (rename, export, delete) take room only when they show: on hover, while a
  // key is in the row, on the open chat, and always where there is no hover (touch). Elsewhere the
  // title has the row's whole width. Hidden by opacity, not display, so Tab still reaches them.
  const shown = current ? "always" : "on-hover";
  return (
    <li data-testid="session-row" data-actions={shown} className={cn("group rounded-md", current ? "bg-accent" : "hover:bg-accent/60")}>
      <div className="relative flex items-center">
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
          <span data-testid="session-title" className={cn("w-full truncate text-left", !confirming && ROOM_FOR_ACTIONS)}>
            {title}
          </span>
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
          <span data-testid="session-actions" className={cn("absolute inset-y-0 right-1 flex items-center", ACTIONS_VISIBILITY)}>
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
