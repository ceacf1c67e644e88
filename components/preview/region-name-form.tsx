"use client";

import { useEffect, useId, useRef, useState } from "react";

interface RegionNameFormProps {
  defaultName: string;
  onSave: (name: string) => void;
  onDiscard: () => void;
}

/** Names a just-closed shape inline; Enter saves, Escape discards. */
export function RegionNameForm({ defaultName, onSave, onDiscard }: RegionNameFormProps) {
  const [name, setName] = useState(defaultName);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  return (
    <form
      className="flex flex-wrap items-center gap-2 rounded-md border border-blue-200 bg-blue-50 p-2 dark:border-blue-900 dark:bg-blue-950/40"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(name.trim() || defaultName);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onDiscard();
        }
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-100">
        Name this region
      </label>
      <input
        ref={input}
        id={id}
        value={name}
        maxLength={80}
        onChange={(e) => setName(e.target.value)}
        className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
      />
      <button type="submit" className="rounded-md bg-blue-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-blue-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-1">
        Save region
      </button>
      <button type="button" onClick={onDiscard} className="rounded-md border border-zinc-300 px-2.5 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800">
        Discard
      </button>
    </form>
  );
}
