"use client";

import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { NotebookOutputView } from "@/lib/client/preview-data";

const TEXT = "max-h-72 overflow-auto whitespace-pre-wrap break-words font-mono text-xs";

/** One output of a notebook cell; everything the kernel produced is rendered as text. */
export function NotebookOutput({ output }: { output: NotebookOutputView }) {
  switch (output.kind) {
    case "stream":
      return (
        <pre
          tabIndex={0}
          aria-label={output.name === "stderr" ? "Standard error" : "Standard output"}
          className={cn(TEXT, output.name === "stderr" && "rounded-md bg-warning-soft p-2 text-warning-soft-foreground")}
        >
          {output.text}
        </pre>
      );
    case "image":
      return (
        // eslint-disable-next-line @next/next/no-img-element -- a data: URL from the downloaded notebook
        <img src={output.src} alt={output.alt} className="h-auto max-w-full self-start rounded-md border bg-white" />
      );
    case "text":
      return <pre className={TEXT}>{output.text}</pre>;
    case "error":
      return (
        <Card role="group" aria-label={`Error: ${output.ename}`} tone="danger" padding="none" className="p-2">
          <p className="font-mono text-xs font-semibold">
            {output.ename}
            {output.evalue ? `: ${output.evalue}` : ""}
          </p>
          {output.traceback && (
            <details className="mt-1">
              <summary className="focus-ring cursor-pointer rounded-sm text-xs">Traceback</summary>
              <pre tabIndex={0} className={cn(TEXT, "focus-ring mt-1")}>
                {output.traceback}
              </pre>
            </details>
          )}
        </Card>
      );
  }
}
