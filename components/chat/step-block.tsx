"use client";

import { ChevronRight, Loader2 } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Badge, type BadgeProps } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { cellOutputView, type Entry, type StepAgent } from "@/lib/client/message-parts";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import { agentIcon } from "./agent-icon";
import { CodeBlock } from "./code-block";
import { ObservationView } from "./observation-view";
import { WaitNote } from "./wait-note";

export interface StepBlockProps {
  agent: StepAgent;
  /** 1-based count of this agent's code steps in the run. */
  index: number;
  step: Entry<"cell">;
  /** The cell's result; null while it runs (or if none was recorded). */
  observation: Entry<"cell_output"> | null;
  /** Open on first render. Later changes are ignored: the person's toggle wins. */
  defaultOpen?: boolean;
  /** The newest item of the chat: a missing observation then means "still running". */
  latest?: boolean;
}

type StepStatus = "Error" | "Done" | "Running…" | "No output" | "Stopped";
const BADGE: Record<StepStatus, BadgeProps["variant"]> = { Error: "danger", Done: "success", "Running…": "primary", "No output": "default", Stopped: "warning" };

function title(agent: StepAgent, index: number): string {
  const card = agentCard(agent);
  return card?.stepTitle?.(index) ?? `${card?.label ?? agent} · step ${index}`;
}

/** One planner or coder turn: thinking, the highlighted code, and what the kernel answered. Collapsible. */
export function StepBlock({ agent, index, step, observation, defaultOpen = true, latest = false }: StepBlockProps) {
  const [open, setOpen] = useState(defaultOpen);
  // A long transcript loads with most steps collapsed: their code is not
  // highlighted nor their output laid out until someone opens them (then they
  // stay mounted, so reopening is instant).
  const [opened, setOpened] = useState(defaultOpen);
  const bodyId = useId();
  const thinking = step.item.thinking.trim();
  const code = step.item.code;
  // What the chat shows of each part (blank output counts as nothing printed).
  const shown = useMemo(() => (observation ? cellOutputView(observation.item.output) : null), [observation]);
  // The person stopped the run while this cell ran: its output is what it printed until then.
  const stopped = observation?.item.stopped === true;
  const failed = !stopped && shown !== null && shown.error !== "";
  const printed = shown !== null && Boolean(shown.stdout || shown.stderr || shown.value || shown.images || (observation?.item.media.length ?? 0) > 0);
  const status: StepStatus = observation ? (stopped ? "Stopped" : failed ? "Error" : "Done") : latest ? "Running…" : "No output";
  const Icon = agentIcon(agent);
  const summary = thinking.split("\n")[0] ?? "";

  return (
    <article data-testid={`message-${step.role}`} data-seq={step.seq} className="max-w-full">
      <Card asChild padding="none" className={failed ? "border-danger-border" : undefined}>
        <section data-testid="step-block" data-agent={agent} data-status={status}>
          <h3>
            <Button
              variant="ghost"
              aria-expanded={open}
              aria-controls={bodyId}
              onClick={() => {
                setOpened(true);
                setOpen((o) => !o);
              }}
              className="focus-ring-inset h-auto w-full justify-start gap-2 rounded-lg px-3 py-2 text-left font-normal hover:bg-accent/60"
            >
              <ChevronRight aria-hidden="true" className={cn("size-4 shrink-0 text-muted-foreground transition-transform motion-reduce:transition-none", open && "rotate-90")} />
              <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="font-semibold">{title(agent, index)}</span>
              {!open && summary && <span className="min-w-0 flex-1 truncate text-muted-foreground">{summary}</span>}
              <Badge variant={BADGE[status]} className="ml-auto">
                {status === "Running…" && <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />}
                {status}
              </Badge>
            </Button>
          </h3>
          {!opened && observation && (
            // The observation is still one element of the transcript while collapsed.
            <div hidden data-testid={`message-${observation.role}`} data-seq={observation.seq} />
          )}
          <div id={bodyId} hidden={!open} className="border-t px-3 pb-3">
            {opened && thinking && <p className="mt-2 text-sm whitespace-pre-wrap break-words text-muted-foreground">{thinking}</p>}
            {opened && code && <CodeBlock code={code} title="Python" copyWhat="code" />}
            {!opened ? null : observation ? (
              <div data-testid={`message-${observation.role}`} data-seq={observation.seq}>
                {stopped && (
                  <p data-testid="step-stopped" className="mt-2 text-sm font-medium">
                    Stopped by you. {printed ? "What it printed until then:" : "It had not printed anything yet."}
                  </p>
                )}
                <ObservationView output={observation.item.output} media={observation.item.media} stopped={stopped} />
              </div>
            ) : (
              <p className="mt-2 text-xs text-muted-foreground" role={latest ? "status" : undefined}>
                {latest ? <WaitNote /> : "No output was recorded for this step."}
              </p>
            )}
          </div>
        </section>
      </Card>
    </article>
  );
}
