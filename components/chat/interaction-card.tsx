"use client";

import { MessageCircleQuestion, ShieldAlert } from "lucide-react";
import { useMemo, useState } from "react";
import { Card, CardEyebrow } from "@/components/ui/card";
import { CARD_SHORTCUT } from "@/lib/client/card-shortcut";
import { describeAnswer, parseToolReview, type CardAnswer, type Entry, type InteractionEntry } from "@/lib/client/message-parts";
import { QuestionForm } from "./question-form";
import { SafetyCard } from "./safety-card";
import { ToolReviewCard } from "./tool-review-card";

export interface InteractionCardProps {
  /** A question, tool review or safety check. */
  message: InteractionEntry;
  /** The person's answer to it, if any. */
  response: Entry<"answer"> | null;
  /**
   * The card stands for the response message in the transcript (data-seq,
   * message-interaction_response). False when the response is also listed on
   * its own further down; default true.
   */
  responseInline?: boolean;
  /** This is the question the run is waiting on (seq === pendingSeq): the only enabled card. */
  pending: boolean;
  /** May return a promise; if it rejects or resolves to false the card re-enables so the person can try again. */
  onAnswer(answer: CardAnswer, seq: number): void;
}

/** The interaction's kind as the card names it (`data-kind`, the wire's `kind`). */
const KIND = { question: "question", tool_review: "tool_review", safety_check: "safety" } as const;

/**
 * A question from the planner (or a tool review). Answering disables it at
 * once, before the server echoes the answer back, so a double click cannot
 * send two answers; once the answer arrives it reads "You answered: …".
 */
export function InteractionCard({ message, response, responseInline = true, pending, onAnswer }: InteractionCardProps) {
  const asked = message.item;
  // The tool-review payload is model-influenced: the card reads it field by field.
  const review = useMemo(() => (asked.type === "tool_review" ? parseToolReview(asked.payload) : null), [asked]);
  const safety = asked.type === "safety_check";
  const safetyPayload = asked.type === "safety_check" ? asked.payload : null;
  const [sent, setSent] = useState<CardAnswer | null>(null);

  const answer = (given: CardAnswer) => {
    setSent(given);
    const result: unknown = onAnswer(given, message.seq);
    // A promise resolving to false (or rejecting) means it was not sent: allow another try.
    if (result instanceof Promise) result.then((ok: unknown) => ok === false && setSent(null), () => setSent(null));
  };

  const answered: CardAnswer | null = response ? response.item : null;
  const words = (a: CardAnswer | null) => a?.text ?? null;
  const say = (text: string) => answer({ text });
  const disabled = !pending || answered !== null || sent !== null;
  // A readable safety card says what, where and why itself; the server's sentence would repeat it.
  const prompt = safetyPayload ? "The browser stopped to ask you before this step." : asked.prompt;
  const waiting = pending && answered === null;

  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full">
      <Card asChild tone={waiting ? "info" : "default"}>
        <section
          data-testid="interaction-card"
          data-kind={KIND[asked.type]}
          data-state={answered !== null ? "answered" : pending ? "pending" : "inactive"}
          aria-label={safety ? "Safety check from the browser" : review ? "Tool review" : "Question from the planner"}
          aria-keyshortcuts={waiting ? CARD_SHORTCUT : undefined}
        >
          <CardEyebrow className="flex items-center gap-1.5">
            {safety ? <ShieldAlert aria-hidden="true" className="size-3.5" /> : <MessageCircleQuestion aria-hidden="true" className="size-3.5" />}
            {safety ? "Safety check" : review ? "Tool review" : "Question"}
            {waiting && <span className="normal-case">· waiting for your answer</span>}
          </CardEyebrow>
          {prompt && <p className="mt-1 whitespace-pre-wrap break-words">{prompt}</p>}
          {waiting && (
            // Keyboards are rare at phone width, so the hint shows from the sm breakpoint up.
            <p data-testid="card-shortcut" className="mt-1 hidden text-xs text-muted-foreground sm:block" title={`Press ${CARD_SHORTCUT} anywhere on the page to come to this card's first answer`}>
              <kbd className="rounded border bg-muted px-1 font-sans font-medium">{CARD_SHORTCUT}</kbd> from anywhere brings you here
            </p>
          )}
          {safety ? (
            <SafetyCard payload={safetyPayload} disabled={disabled} chosen={words(answered ?? sent)} onChoose={say} />
          ) : review ? (
            <ToolReviewCard review={review} disabled={disabled} answer={answered ?? sent} onChoose={answer} />
          ) : (
            <QuestionForm options={asked.options} disabled={disabled} chosen={words(answered ?? sent)} onSubmit={say} />
          )}
          {answered !== null ? (
            <p
              {...(responseInline && response ? { "data-testid": `message-${response.role}`, "data-seq": response.seq } : {})}
              className="mt-3 text-sm font-medium whitespace-pre-wrap break-words"
            >
              You answered: {describeAnswer(answered)}
            </p>
          ) : sent !== null ? (
            <p role="status" className="mt-3 text-sm text-muted-foreground">
              Sending your answer: {describeAnswer(sent)}
            </p>
          ) : (
            !pending && <p className="mt-3 text-xs text-muted-foreground">{safety ? "This step" : "This question"} is no longer waiting for an answer.</p>
          )}
        </section>
      </Card>
    </article>
  );
}
