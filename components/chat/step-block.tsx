"use client";

import { useId, useMemo, useState } from "react";
import { parseObservation, parseStep, type StepAgent } from "@/lib/client/message-parts";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { CodeBlock } from "./code-block";
import { ObservationView } from "./observation-view";

export interface StepBlockProps {
  agent: StepAgent;
  /** 1-based count of this agent's code steps in the run. */
  index: number;
  step: StreamedMessage;
  /** The cell's result; null while it runs (or if none was recorded). */
  observation: StreamedMessage | null;
  /** Open on first render. Later changes are ignored: the person's toggle wins. */
  defaultOpen?: boolean;
  /** The newest item of the chat: a missing observation then means "still running". */
  latest?: boolean;
}

function title(agent: StepAgent, index: number): string {
  if (agent === "planner") return `Planner · turn ${index}`;
  return index === 1 ? "Coder · test run" : `Coder · test run ${index}`;
}

/** One planner or coder turn: thinking, the highlighted code, and what the kernel answered. Collapsible. */
export function StepBlock({ agent, index, step, observation, defaultOpen = true, latest = false }: StepBlockProps) {
  const [open, setOpen] = useState(defaultOpen);
  // A long transcript loads with most steps collapsed: their code is not
  // highlighted nor their output laid out until someone opens them (then they
  // stay mounted, so reopening is instant).
  const [opened, setOpened] = useState(defaultOpen);
  const bodyId = useId();
  const parsed = useMemo(() => parseStep(step.content), [step.content]);
  const failed = useMemo(() => (observation ? parseObservation(observation.content).error !== "" : false), [observation]);
  const status = observation ? (failed ? "Error" : "Done") : latest ? "Running…" : "No output";
  const summary = parsed.thinking.split("\n")[0] ?? "";

  return (
    <article data-testid={`message-${step.role}`} data-seq={step.seq} className="max-w-full">
      <section
        data-testid="step-block"
        data-agent={agent}
        data-status={status}
        className={`rounded-lg border bg-white dark:bg-zinc-900 ${failed ? "border-red-300 dark:border-red-800" : "border-zinc-200 dark:border-zinc-700"}`}
      >
        <h3>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => {
              setOpened(true);
              setOpen((o) => !o);
            }}
            className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
          >
            <span aria-hidden="true" className={`inline-block text-xs transition-transform motion-reduce:transition-none ${open ? "rotate-90" : ""}`}>
              ▶
            </span>
            <span className="font-semibold">{title(agent, index)}</span>
            {!open && summary && <span className="min-w-0 flex-1 truncate text-zinc-500 dark:text-zinc-400">{summary}</span>}
            <span
              className={`ml-auto shrink-0 rounded px-1.5 py-0.5 text-xs ${
                failed
                  ? "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200"
                  : "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"
              }`}
            >
              {status}
            </span>
          </button>
        </h3>
        {!opened && observation && (
          // The observation is still one element of the transcript while collapsed.
          <div hidden data-testid={`message-${observation.role}`} data-seq={observation.seq} />
        )}
        <div id={bodyId} hidden={!open} className="border-t border-zinc-200 px-3 pb-3 dark:border-zinc-700">
          {opened && parsed.thinking && <p className="mt-2 text-sm whitespace-pre-wrap break-words text-zinc-700 dark:text-zinc-300">{parsed.thinking}</p>}
          {opened && parsed.code && <CodeBlock code={parsed.code} title="Python" copyWhat="code" />}
          {!opened ? null : observation ? (
            <div data-testid={`message-${observation.role}`} data-seq={observation.seq}>
              <ObservationView text={observation.content} media={observation.media} />
            </div>
          ) : (
            <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400" role={latest ? "status" : undefined}>
              {latest ? "Running the code…" : "No output was recorded for this step."}
            </p>
          )}
        </div>
      </section>
    </article>
  );
}
