"use client";

import { FileCode2, Package } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useId, type ReactNode } from "react";
import { pyFileName, type FinalCode } from "@/lib/client/preview-data";
import { CopyButton } from "@/components/chat/copy-button";
import { EmptyState } from "./empty-state";
import { HighlightedCode } from "./highlighted-code";
import { CurlLine } from "./curl-line";
import { FunctionPicker } from "./function-picker";
import { FunctionVersions } from "./function-versions";
import { useFunctionVersions } from "./use-function-versions";

export interface CodeTabProps {
  /** The last coder run's function and test, from the chat. */
  final: FinalCode | null;
  sessionId: string | null;
  active: boolean;
  /** The kept function the person picked, null for the newest. */
  chosen: string | null;
  onChoose: (name: string) => void;
  /** The batch panel, placed above the versions and the curl line so a starting batch is in sight. */
  batch?: ReactNode;
}

/**
 * The coder's deliverable: the function and its test, to copy, or to download as a zip that runs
 * outside Argus;
 * its kept versions with a diff between two, and the curl line that runs it
 * over HTTP. A session that keeps several functions gets a picker, and the
 * tab shows the picked one's latest version.
 */
export function CodeTab({ final: lastRun, sessionId, active, chosen, onChoose, batch }: CodeTabProps) {
  const id = useId();
  const kept = useFunctionVersions(sessionId, chosen, lastRun?.code ?? "", active && lastRun !== null);
  const latest = kept.versions.at(-1);
  // A picked function shows its newest kept version; otherwise the last run's code, which is the newest function's.
  const final = chosen !== null && latest && latest.name === chosen ? { code: latest.code, test: latest.test } : lastRun;
  if (!final) {
    return (
      <>
        <EmptyState>No code yet — ask a vision question.</EmptyState>
        {batch}
      </>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {kept.functions.length > 1 && kept.current && <FunctionPicker functions={kept.functions} value={kept.current.name} onChange={onChoose} />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-1.5 font-mono text-sm">
          <FileCode2 aria-hidden="true" className="size-4 text-muted-foreground" />
          {pyFileName(final.code)}
        </p>
        {sessionId && kept.current && (
          <Button asChild size="xs">
            {/* The server's zip of the version shown: <name>.py beside the helpers it calls, run as `python3 <name>.py IMAGE…`. */}
            <a href={exportUrl(sessionId, kept.current.name, latest && latest.name === kept.current.name ? latest.version : null)} download data-testid="download-zip" title={`Runs with python3 ${pyFileName(final.code)} IMAGE…, outside Argus`}>
              <Package aria-hidden="true" />
              Download .zip
            </a>
          </Button>
        )}
      </div>
      <section aria-labelledby={`${id}-code`} className="flex flex-col gap-2">
        <div className="flex items-center justify-between">
          <h3 id={`${id}-code`} className="text-sm font-semibold">
            Function
          </h3>
          <CopyButton text={final.code} what="code" />
        </div>
        <HighlightedCode code={final.code} label="Final code" className="max-h-[50vh]" />
      </section>
      {final.test && (
        <section aria-labelledby={`${id}-test`} className="flex flex-col gap-2">
          <div className="flex items-center justify-between">
            <h3 id={`${id}-test`} className="text-sm font-semibold">
              Test
            </h3>
            <CopyButton text={final.test} what="test" />
          </div>
          <HighlightedCode code={final.test} label="Test code" className="max-h-[30vh]" />
        </section>
      )}
      {batch}
      {kept.error && <p className="text-xs text-destructive">The function's versions could not be loaded: {kept.error}</p>}
      {kept.current && kept.versions.length > 0 && (
        <FunctionVersions key={`${sessionId}:${kept.current.name}`} name={kept.current.name} versions={kept.versions} />
      )}
      {sessionId && kept.current && <CurlLine sessionId={sessionId} name={kept.current.name} />}
    </div>
  );
}

/** The runnable export of one kept version (the latest while the versions are still loading). */
function exportUrl(sessionId: string, name: string, version: number | null): string {
  const base = `/api/sessions/${encodeURIComponent(sessionId)}/functions/${encodeURIComponent(name)}`;
  return version === null ? `${base}/export` : `${base}/versions/${version}/export`;
}
