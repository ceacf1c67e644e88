"use client";

import { Check, ShieldCheck, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { shortUrl } from "@/lib/client/browser-screens";
import type { SafetyPayload } from "@/lib/foundation/protocol/browser-wire";
import { PointedScreenshot } from "./pointed-screenshot";

/** The answers the server knows; anything but CONFIRM is a refusal. */
export const CONFIRM = "Confirm";
export const REFUSE = "Refuse";

const RAISED_BY = { policy: "Argus's safety policy", model: "the browsing model" } as const;

export interface SafetyCardProps {
  /** The payload; null when it did not parse (the prompt and the buttons still work). */
  payload: SafetyPayload | null;
  /** True once answered, or when this card is not the one the run waits on. */
  disabled: boolean;
  /** The answer given (or being sent), if any: its button stays marked. */
  chosen: string | null;
  onChoose(text: typeof CONFIRM | typeof REFUSE): void;
}

/**
 * What the browser is about to do and why Argus stopped to ask: the action,
 * the page, each check in words (and who raised it), and the screen it was
 * decided on with the pointer marked. Refuse is the safe default: first,
 * filled, and focused when the card starts waiting.
 */
export function SafetyCard({ payload, disabled, chosen, onChoose }: SafetyCardProps) {
  const refuseRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!disabled) refuseRef.current?.focus();
  }, [disabled]);

  return (
    <div data-testid="safety-card" className="mt-3 flex flex-col gap-3">
      {payload && (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          <dt className="font-medium">What</dt>
          <dd data-testid="safety-action">
            <code className="rounded bg-muted px-1 font-mono break-words">{payload.action}</code>
          </dd>
          <dt className="font-medium">Where</dt>
          <dd data-testid="safety-url" className="truncate font-mono" title={payload.url}>
            {shortUrl(payload.url) || "—"}
          </dd>
          <dt className="font-medium">Why</dt>
          <dd>
            <ul data-testid="safety-checks" className="flex flex-col gap-1">
              {payload.checks.map((c, i) => (
                <li key={`${i}:${c.code}`} data-source={c.source}>
                  {c.message || c.code}
                  <span className="text-muted-foreground"> — raised by {RAISED_BY[c.source]}</span>
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      )}
      {payload?.screenshot && (
        <PointedScreenshot
          image={payload.screenshot}
          pointer={payload.pointer}
          viewport={payload.viewport}
          alt={`The page when the browser asked: ${shortUrl(payload.url)}`}
          imageClassName="max-h-80"
          linked
        />
      )}
      <div role="group" aria-label="Let the browser do this?" className="flex flex-wrap gap-2">
        <Button
          ref={refuseRef}
          data-testid="safety-refuse"
          data-card-option
          disabled={disabled}
          aria-pressed={chosen === null ? undefined : chosen !== CONFIRM}
          onClick={() => onChoose(REFUSE)}
          className="disabled:aria-pressed:opacity-100"
        >
          {chosen !== null && chosen !== CONFIRM ? <Check aria-hidden="true" /> : <X aria-hidden="true" />}
          Refuse
        </Button>
        <Button
          variant="outline"
          data-testid="safety-confirm"
          data-card-option
          disabled={disabled}
          aria-pressed={chosen === null ? undefined : chosen === CONFIRM}
          onClick={() => onChoose(CONFIRM)}
          className="aria-pressed:border-primary aria-pressed:bg-primary-soft aria-pressed:text-primary-soft-foreground disabled:aria-pressed:opacity-100"
        >
          {chosen === CONFIRM ? <Check aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
          Confirm
        </Button>
      </div>
    </div>
  );
}
