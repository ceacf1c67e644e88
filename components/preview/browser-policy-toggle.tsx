"use client";

import { useId, useState } from "react";
import { cn } from "@/components/ui/cn";

export type BrowserPolicyChecks = "ask" | "never";

export interface BrowserPolicyToggleProps {
  value: BrowserPolicyChecks;
  /** Saves the new value; resolves false (or rejects) when it could not be saved. */
  onChange(value: BrowserPolicyChecks): Promise<boolean>;
  /** No session yet, or it can't be changed. */
  disabled?: boolean;
}

/**
 * The session's "ask before risky steps" switch: on, Argus's own checks
 * (password field, form submit, leaving the site, a download) stop the
 * browser to ask; off is for sandboxed labs. The model's own checks are
 * asked either way, and the sentence under the switch says so.
 */
export function BrowserPolicyToggle({ value, onChange, disabled = false }: BrowserPolicyToggleProps) {
  const [saving, setSaving] = useState<BrowserPolicyChecks | null>(null);
  const [error, setError] = useState<string | null>(null);
  const labelId = useId();
  const hintId = useId();
  // While saving, the switch already shows where it is going.
  const on = (saving ?? value) === "ask";

  const toggle = () => {
    const next: BrowserPolicyChecks = on ? "never" : "ask";
    setSaving(next);
    setError(null);
    onChange(next)
      .then((ok) => !ok && setError("The setting could not be saved. Try again."))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : "The setting could not be saved."))
      .finally(() => setSaving(null));
  };

  return (
    <div data-testid="browser-policy" className="flex items-start gap-3">
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        aria-describedby={hintId}
        disabled={disabled || saving !== null}
        onClick={toggle}
        className={cn(
          "focus-ring relative mt-0.5 inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border transition-colors disabled:cursor-not-allowed disabled:opacity-60",
          on ? "border-primary bg-primary" : "border-input bg-muted",
        )}
      >
        <span
          aria-hidden="true"
          className={cn("inline-block size-4 rounded-full bg-background shadow transition-transform motion-reduce:transition-none", on ? "translate-x-4" : "translate-x-0.5")}
        />
      </button>
      <div className="min-w-0 text-sm">
        <p id={labelId} className="font-medium">
          Ask before risky steps
        </p>
        <p id={hintId} className="text-muted-foreground">
          Typing a password, submitting a form, leaving the site or downloading waits for your OK. Checks the model itself raises are always asked, even when this is off.
        </p>
        {error && (
          <p role="alert" className="mt-1 text-danger-soft-foreground">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
