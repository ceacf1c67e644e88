"use client";

import type { FunctionSummaryView } from "@/lib/foundation/protocol/functions";

/**
 * Which of the session's kept functions the Code tab shows, when it keeps more
 * than one (each coder run for a new task adds one; edits add versions).
 */
export function FunctionPicker({ functions, value, onChange }: { functions: FunctionSummaryView[]; value: string; onChange: (name: string) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="font-semibold">Function</span>
      <select data-testid="function-picker" className="rounded border bg-background px-1.5 py-0.5 font-mono text-sm" value={value} onChange={(e) => onChange(e.target.value)}>
        {functions.map((f) => (
          <option key={f.name} value={f.name}>
            {f.name} (v{f.latestVersion}
            {f.success ? "" : ", test failed"})
          </option>
        ))}
      </select>
    </label>
  );
}
