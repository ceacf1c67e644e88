"use client";

import { useId, useState, type FormEvent, type KeyboardEvent } from "react";

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
            <button
              key={`${i}:${option}`}
              type="button"
              disabled={disabled}
              aria-pressed={chosen === null ? undefined : chosen === option}
              onClick={() => onSubmit(option)}
              className="rounded-md border border-blue-600 px-3 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 aria-pressed:font-semibold disabled:cursor-not-allowed disabled:border-zinc-300 disabled:text-zinc-400 disabled:hover:bg-transparent disabled:aria-pressed:border-blue-600 disabled:aria-pressed:text-blue-700 dark:border-blue-400 dark:text-blue-300 dark:hover:bg-blue-950 dark:disabled:border-zinc-700 dark:disabled:text-zinc-500 dark:disabled:aria-pressed:border-blue-400 dark:disabled:aria-pressed:text-blue-300"
            >
              {chosen === option && <span aria-hidden="true">✓ </span>}
              {option}
            </button>
          ))}
        </div>
      )}
      <form onSubmit={submit} className="mt-2 flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          Your answer
        </label>
        <input
          id={inputId}
          type="text"
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={options.length > 0 ? "Or type your own answer" : "Type your answer"}
          autoComplete="off"
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:bg-zinc-100 dark:border-zinc-600 dark:bg-zinc-900 dark:disabled:bg-zinc-800"
        />
        <button
          type="submit"
          disabled={disabled || !text.trim()}
          className="rounded-md bg-blue-600 px-3 py-1 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Send
        </button>
      </form>
    </div>
  );
}
