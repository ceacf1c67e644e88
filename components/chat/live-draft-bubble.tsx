"use client";

import { Eye, Loader2 } from "lucide-react";
import { useSyncExternalStore } from "react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { draftTitle, visibleDraft, type DraftStore } from "@/lib/client/live-draft";
import { agentCard } from "@/lib/foundation/protocol/agent-cards";
import type { DraftWire } from "@/lib/foundation/protocol/socket";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { agentIcon } from "./agent-icon";
import { CodeBlock } from "./code-block";
import { MarkdownText } from "./markdown-text";

export interface LiveDraftBubbleProps {
  drafts: DraftStore;
  /** The highest seq the transcript shows: a draft older than it is over. */
  heldLastSeq: number;
  state: RunStateWire | null;
}

/**
 * The step the model is writing right now, as it writes it: the agent's in-progress bubble.
 * It is not part of the transcript (no seq): the step's persisted message replaces it, and it
 * is gone when the run ends. Subscribes to the draft store itself, so a draft re-renders only
 * this bubble.
 */
export function LiveDraftBubble({ drafts, heldLastSeq, state }: LiveDraftBubbleProps) {
  const latest = useSyncExternalStore(drafts.subscribe, drafts.get, drafts.get);
  const draft = visibleDraft(latest, heldLastSeq, state);
  if (draft === null) return null;
  return agentCard(draft.agent)?.shows === "cells" ? <StepDraft key={`${draft.runId}:${draft.step}`} draft={draft} /> : <ReplyDraft draft={draft} />;
}

function Thinking({ text }: { text: string }) {
  return (
    <p data-testid="live-draft-thinking" className="mt-2 text-sm whitespace-pre-wrap break-words text-muted-foreground">
      {text}
    </p>
  );
}

/** A planner or coder step being written, laid out like the step it becomes. */
function StepDraft({ draft }: { draft: DraftWire }) {
  const { view } = draft;
  const Icon = agentIcon(draft.agent);
  return (
    <article data-testid="live-draft" data-run={draft.runId} data-agent={draft.agent} data-step={draft.step} aria-busy="true" className="max-w-full">
      <Card padding="none">
        <h3 className="flex items-center gap-2 px-3 py-2">
          <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
          <span className="font-semibold">{draftTitle(draft)}</span>
          <Badge variant="primary" className="ml-auto">
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
            Writing…
          </Badge>
        </h3>
        <div className="border-t px-3 pb-3">
          {view.thinking && <Thinking text={view.thinking} />}
          {view.plan && <p data-testid="live-draft-plan" className="mt-2 text-sm whitespace-pre-wrap break-words">{view.plan}</p>}
          {view.question && <p data-testid="live-draft-question" className="mt-2 text-sm font-medium whitespace-pre-wrap break-words">{view.question}</p>}
          {view.code && (
            <div data-testid="live-draft-code">
              <CodeBlock code={view.code} title={view.plan !== undefined ? "Plan code" : "Python"} copyWhat="code" />
            </div>
          )}
          {view.test && (
            <div data-testid="live-draft-test">
              <CodeBlock code={view.test} title="Test" copyWhat="test" />
            </div>
          )}
        </div>
      </Card>
    </article>
  );
}

/** The conversation agent's reply being written, as the Markdown message it becomes. */
function ReplyDraft({ draft }: { draft: DraftWire }) {
  const { view } = draft;
  return (
    <article data-testid="live-draft" data-run={draft.runId} data-agent={draft.agent} data-step={draft.step} aria-busy="true" aria-label="Argus, writing" className="max-w-full">
      <p className="mb-1.5 flex items-center gap-1.5 text-xs font-semibold text-muted-foreground">
        <span aria-hidden="true" className="inline-flex size-5 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <Eye className="size-3" />
        </span>
        Argus
        <Loader2 aria-label="writing" className="size-3 motion-safe:animate-spin" />
      </p>
      {view.thinking && <Thinking text={view.thinking} />}
      {view.response && (
        <div data-testid="live-draft-response">
          <MarkdownText text={view.response} />
        </div>
      )}
    </article>
  );
}
