"use client";

import { Check } from "lucide-react";
import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

export interface QuestionFormProps {
  options: readonly string[];
  disabled: boolean;
  /** The answer given (or being sent): its option is marked, in words as well as style. */
  chosen?: string | null;
  onSubmit(text: string): void;
}

/** Options as buttons plus a free-text answer; the original app ignored typed answers, this one does not. */
export function QuestionForm({ options, disabled, chosen = null, onSubmit }: QuestionFormProps) {
  const [text, setText] = useState("");
  const inputId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const answer = text.trim();
    if (!answer || disabled) return;
    onSubmit(answer);
    setText("");
  };

  // Enter that confirms an IME composition (CJK input) must not send the answer.
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" && (e.nativeEvent.isComposing || e.keyCode === 229)) e.preventDefault();
  };

  return (
    <div className="mt-3">
      {options.length > 0 && (
        <div role="group" aria-label="Answers" className="flex flex-wrap gap-2">
          {options.map((option, i) => (
            <Button
              key={`${i}:${option}`}
              variant="outline"
              size="sm"
              disabled={disabled}
              aria-pressed={chosen === null ? undefined : chosen === option}
              data-card-option
              onClick={() => onSubmit(option)}
              // The chosen option stays marked (and fully opaque) once the card is disabled.
              className="aria-pressed:border-primary aria-pressed:bg-primary-soft aria-pressed:text-primary-soft-foreground disabled:aria-pressed:opacity-100"
            >
              {chosen === option && <Check aria-hidden="true" />}
              {option}
            </Button>
          ))}
        </div>
      )}
      <form onSubmit={submit} className="mt-2 flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          Your answer
        </label>
        <Input
          id={inputId}
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={options.length > 0 ? "Or type your own answer" : "Type your answer"}
          // With no options to choose from, the text box is where the card shortcut lands.
          {...(options.length === 0 ? { "data-card-option": true } : {})}
          autoComplete="off"
          className="flex-1"
        />
        <Button type="submit" size="sm" disabled={disabled || !text.trim()}>
          Send
        </Button>
      </form>
    </div>
  );
}
