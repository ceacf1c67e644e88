"use client";

import { ArrowDown } from "lucide-react";
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { Button } from "@/components/ui/button";
import type { DraftStore } from "@/lib/client/live-draft";
import { CARD_FOCUSABLE_SELECTOR, CARD_OPTION_SELECTOR, isCardShortcut } from "@/lib/client/card-shortcut";
import { lastSeq } from "@/lib/client/merge-messages";
import { groupMessages, type CardAnswer, type DisplayItem } from "@/lib/client/message-parts";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { RunStateWire } from "@/lib/foundation/protocol/state-wire";
import { foldSuperseded, redoOffers } from "@/lib/client/redo-view";
import { DisplayItemView } from "./display-item-view";
import { RedoContext, type RedoControls } from "./redo-context";
import { RunActions } from "./run-actions";
import { LiveDraftBubble } from "./live-draft-bubble";
import { useStickToBottom } from "./use-stick-to-bottom";

export interface MessageListProps {
  messages: StreamedMessage[];
  /** seq of the interaction the run is waiting on; only that card is enabled. */
  pendingSeq?: number;
  /** The person answered an interaction. May return a promise (a rejection re-enables the card). */
  /** `seq`: the question's own seq, so the server uses the answer only for that question. */
  onAnswer(answer: CardAnswer, seq: number): void;
  /** Retry after the latest error. May return a promise (the button stays disabled until it settles). */
  onRetry(): void;
  /** Edit, Regenerate and Continue (lib/client/redo-view.ts); without it the transcript offers none. */
  redo?: MessageListRedo;
  /** The step being written now, shown after the transcript until its message arrives. */
  live?: { drafts: DraftStore; state: RunStateWire | null };
  /** Changes each time the person sends a message: the view follows the run from there. */
  followSignal?: number;
  className?: string;
}

/** What the person can do a turn again with; each resolves true when the server took it. */
export interface MessageListRedo {
  onEdit(seq: number, text: string): Promise<boolean>;
  onRegenerate(seq: number): Promise<boolean>;
  onContinue(runId: string): Promise<boolean>;
}

/**
 * The chat transcript: groups wire messages into display items and keeps the
 * view pinned to the newest one while the person is at the bottom. It is its
 * own scroll container, so give it a bounded height (e.g. flex-1 min-h-0).
 */
export function MessageList({ messages, pendingSeq, onAnswer, onRetry, redo, live, followSignal = 0, className = "" }: MessageListProps) {
  // What a Regenerate or Edit replaced is folded under its mark (redo-note.tsx).
  const folded = useMemo(() => foldSuperseded(messages), [messages]);
  const grouped = useMemo(() => groupMessages(folded.current), [folded]);
  const offers = useMemo(() => redoOffers(folded.current, live?.state ?? null), [folded, live?.state]);
  const redoRef = useRef(redo);
  const onEdit = useCallback((seq: number, text: string) => redoRef.current?.onEdit(seq, text) ?? Promise.resolve(false), []);
  const redoControls = useMemo<RedoControls>(
    () => ({ editable: redo ? offers.editable : new Set(), earlier: folded.earlier, onEdit }),
    [redo, offers.editable, folded.earlier, onEdit],
  );
  // Updates render as a transition, which React time-slices: a 300-message
  // history (which arrives as an update, the list mounts empty) paints in small
  // chunks instead of one long main-thread task, and typing stays responsive.
  const items = useDeferredValue(grouped);
  // Deferred with the items, so the live draft gives way in the very render that shows its step.
  const shownLastSeq = useDeferredValue(lastSeq(messages));
  const shownState = useDeferredValue(live?.state ?? null);

  // Stable callbacks, so the memoised items do not all re-render when the
  // parent passes fresh closures on each render.
  const answerRef = useRef(onAnswer);
  const retryRef = useRef(onRetry);
  useLayoutEffect(() => {
    answerRef.current = onAnswer;
    retryRef.current = onRetry;
    redoRef.current = redo;
  });
  const retry = useCallback(() => retryRef.current(), []);

  // Steps already in the transcript when it first shows (history) start
  // collapsed except the newest; steps that stream in later start open.
  const history = useRef<{ keys: Set<string>; lastTurn: string | null } | null>(null);
  if (history.current === null && items.length > 0) {
    history.current = { keys: new Set(items.map((i) => i.key)), lastTurn: items.findLast((i) => i.kind === "turn")?.key ?? null };
  }
  const defaultOpen = (item: DisplayItem) => {
    const h = history.current;
    return !h || !h.keys.has(item.key) || h.lastTurn === item.key;
  };

  const { scrollRef, contentRef, atBottom, jumpToLatest, follow } = useStickToBottom(items);
  // Answering a card is the person's own move, like sending a message: the view follows from there.
  const answer = useCallback(
    (given: CardAnswer, seq: number) => {
      follow();
      return answerRef.current(given, seq);
    },
    [follow],
  );
  // The card shortcut (Alt+Shift+A) works from anywhere on the page while a card waits.
  useEffect(() => {
    if (pendingSeq === undefined) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isCardShortcut(e)) return;
      const card = contentRef.current?.querySelector<HTMLElement>(`[data-testid="interaction-card"][data-state="pending"]`);
      const target = card?.querySelector<HTMLElement>(CARD_OPTION_SELECTOR) ?? card?.querySelector<HTMLElement>(CARD_FOCUSABLE_SELECTOR);
      if (!target) return;
      e.preventDefault();
      target.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [pendingSeq, contentRef]);
  const mountedSignal = useRef(followSignal);
  useLayoutEffect(() => {
    if (followSignal !== mountedSignal.current) follow();
  }, [followSignal, follow]);

  return (
    <div className={`relative flex h-full min-h-0 flex-1 flex-col ${className}`}>
      <div
        ref={scrollRef}
        role="log"
        aria-label="Conversation"
        tabIndex={0}
        className="focus-ring-inset min-h-0 flex-1 overflow-y-auto overscroll-contain"
      >
        <div ref={contentRef} className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 py-5">
          <RedoContext.Provider value={redoControls}>
          {items.map((item, i) => (
            <DisplayItemView
              key={item.key}
              item={item}
              pending={item.kind === "interaction" && item.message.seq === pendingSeq}
              latest={i === items.length - 1}
              defaultOpen={defaultOpen(item)}
              onAnswer={answer}
              onRetry={retry}
            />
          ))}
          </RedoContext.Provider>
          {redo && (
            <RunActions
              canRegenerate={offers.regenerate !== null}
              canContinue={offers.continueRun !== null}
              onRegenerate={() => (offers.regenerate !== null ? redo.onRegenerate(offers.regenerate) : undefined)}
              onContinue={() => (offers.continueRun !== null ? redo.onContinue(offers.continueRun) : undefined)}
            />
          )}
          {live && <LiveDraftBubble drafts={live.drafts} heldLastSeq={shownLastSeq} state={shownState} />}
        </div>
      </div>
      {!atBottom && (
        <Button
          variant="outline"
          size="sm"
          data-testid="jump-to-latest"
          onClick={jumpToLatest}
          className="absolute bottom-4 left-1/2 -translate-x-1/2 rounded-full shadow-md"
        >
          Jump to latest <ArrowDown aria-hidden="true" />
        </Button>
      )}
    </div>
  );
}
