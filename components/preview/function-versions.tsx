"use client";

import { useState } from "react";
import type { FunctionVersionView } from "@/lib/foundation/protocol/functions";
import { CodeDiffView } from "./code-diff-view";

function VersionSelect({ label, value, versions, onChange }: { label: string; value: number; versions: FunctionVersionView[]; onChange: (v: number) => void }) {
  return (
    <label className="flex items-center gap-1 text-xs">
      {label}
      <select className="rounded border bg-background px-1 py-0.5" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            v{v.version}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The kept versions of one function, and the difference between two the person picks (by default the last two). */
export function FunctionVersions({ name, versions }: { name: string; versions: FunctionVersionView[] }) {
  const latest = versions.at(-1)!.version;
  const [picked, setPicked] = useState<{ from: number | null; to: number | null }>({ from: null, to: null });
  const to = picked.to ?? latest;
  const from = picked.from ?? Math.max(1, to - 1);
  const before = versions.find((v) => v.version === from);
  const after = versions.find((v) => v.version === to);
  return (
    <section aria-label="Versions" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Versions of {name}</h3>
      <ol className="flex flex-col gap-0.5 text-xs" data-testid="function-versions">
        {[...versions].reverse().map((v) => (
          <li key={v.version} className="flex gap-2">
            <span className="font-mono">v{v.version}</span>
            <span className="text-muted-foreground">{new Date(v.createdAt).toLocaleString()}</span>
            <span>{v.success ? "test passed" : "test failed"}</span>
          </li>
        ))}
      </ol>
      {versions.length > 1 && before && after && (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <VersionSelect label="Compare" value={from} versions={versions} onChange={(v) => setPicked({ from: v, to })} />
            <VersionSelect label="with" value={to} versions={versions} onChange={(v) => setPicked({ from, to: v })} />
          </div>
          <CodeDiffView before={before.code} after={after.code} label={`Changes from v${from} to v${to}`} />
        </>
      )}
    </section>
  );
}
