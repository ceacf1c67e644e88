"use client";

import { ChevronRight, Globe, Loader2 } from "lucide-react";
import { useId, useState } from "react";
import { Badge, type BadgeProps } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { browserErrorWords, shortUrl } from "@/lib/client/browser-screens";
import type { Entry } from "@/lib/client/message-parts";
import { PointedScreenshot } from "./pointed-screenshot";

export interface BrowserStepBlockProps {
  /** 1-based count of the browser's actions in the run (0 for a screenshot listed on its own). */
  index: number;
  /** The browser step; null for a screen listed on its own (after a safety card). */
  step: Entry<"browser_step"> | null;
  /** The screen (with its screenshot) the step led to; null while it runs. */
  observation: Entry<"browser_screen"> | null;
  /** A safety card came after the action: its outcome is listed after the card. */
  asked?: boolean;
  /** The newest item of the chat: a missing screenshot then means "still running". */
  latest?: boolean;
}

type Status = "Done" | "Error" | "Running…" | "Asked you" | "Finished" | "No screenshot";
const BADGE: Record<Status, BadgeProps["variant"]> = {
  Done: "success",
  Error: "danger",
  "Running…": "primary",
  "Asked you": "warning",
  Finished: "success",
  "No screenshot": "default",
};

/**
 * One move of the browsing agent: what it did (`click(120, 45)`), where it
 * ended up, and a small screenshot with the pointer marked. The model's
 * thinking and what it was told about the page sit in the collapsed part.
 */
export function BrowserStepBlock({ index, step, observation, asked = false, latest = false }: BrowserStepBlockProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const thinking = step?.item.thinking.trim() ?? "";
  const action = step?.item.action ?? null;
  const screen = observation?.item.screen ?? null;
  const told = observation?.item.text.trim() ?? "";
  const done = action?.tool === "done";
  const error = screen?.error ?? "";
  const screenshot = observation?.item.media[0] ?? null;

  const status: Status = done ? "Finished" : observation ? (error ? "Error" : "Done") : asked ? "Asked you" : latest ? "Running…" : "No screenshot";
  const title = done ? "Browser · done" : step ? `Browser · step ${index}` : "Browser · after your answer";
  // What the step did, in its own words; a screenshot on its own names the action it follows.
  const summary = done ? "" : (action?.summary ?? screen?.action ?? "");
  const details = Boolean(thinking || told || screenshot);
  const first = step ?? observation!;

  return (
    <article data-testid={`message-${first.role}`} data-seq={first.seq} className="max-w-full">
      <Card asChild padding="none" className={error ? "border-danger-border" : undefined}>
        <section data-testid="browser-step" data-status={status} aria-label={title}>
          <h3>
            <Button
              variant="ghost"
              aria-expanded={open}
              aria-controls={bodyId}
              disabled={!details}
              onClick={() => setOpen((o) => !o)}
              className="focus-ring-inset h-auto w-full justify-start gap-2 rounded-lg px-3 py-2 text-left font-normal whitespace-normal hover:bg-accent/60 disabled:cursor-default disabled:opacity-100"
            >
              <ChevronRight aria-hidden="true" className={cn("size-4 shrink-0 text-muted-foreground transition-transform motion-reduce:transition-none", open && "rotate-90", !details && "invisible")} />
              <Globe aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="shrink-0 font-semibold">{title}</span>
              {summary && (
                <code data-testid="browser-action" className="min-w-0 flex-1 truncate font-mono text-sm text-muted-foreground">
                  {summary}
                </code>
              )}
              <Badge variant={BADGE[status]} className="ml-auto">
                {status === "Running…" && <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />}
                {status}
              </Badge>
            </Button>
          </h3>
          {done && action && <p className="border-t px-3 py-2 text-sm whitespace-pre-wrap break-words">{action.summary}</p>}
          {observation && screen && (
            // On its own (no step), the article already stands for the observation in the transcript.
            <div {...(step ? { "data-testid": `message-${observation.role}`, "data-seq": observation.seq } : {})} className="flex gap-3 border-t px-3 py-2">
              {screenshot && screen && (
                <PointedScreenshot image={screenshot} pointer={screen.pointer} viewport={screen.viewport} alt={`Screenshot of ${screen.title || shortUrl(screen.url)}`} imageClassName="w-40" linked lazy small />
              )}
              <div className="min-w-0 flex-1 text-sm">
                {screen.title && <p className="truncate font-medium">{screen.title}</p>}
                <p data-testid="browser-url" className="truncate font-mono text-xs text-muted-foreground" title={screen.url}>
                  {shortUrl(screen.url)}
                </p>
                {error && (
                  <p data-testid="browser-error" className="mt-1 text-danger-soft-foreground">
                    {browserErrorWords(error)}
                  </p>
                )}
              </div>
            </div>
          )}
          {!observation && !done && (asked || latest) && (
            <p className="border-t px-3 py-2 text-xs text-muted-foreground" role={latest ? "status" : undefined}>
              {asked ? "Argus asked you before this step; what happened follows your answer." : "Working in the browser…"}
            </p>
          )}
          <div id={bodyId} hidden={!open} className="border-t px-3 pb-3">
            {open && thinking && <p className="mt-2 text-sm whitespace-pre-wrap break-words text-muted-foreground">{thinking}</p>}
            {open && told && <p className="mt-2 text-sm whitespace-pre-wrap break-words">{told}</p>}
            {open && screenshot && screen && (
              <div className="mt-2">
                <PointedScreenshot image={screenshot} pointer={screen.pointer} viewport={screen.viewport} alt={`Full screenshot of ${screen.title || shortUrl(screen.url)}`} linked />
              </div>
            )}
          </div>
        </section>
      </Card>
    </article>
  );
}
