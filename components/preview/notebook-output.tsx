"use client";

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
          className={`${TEXT} ${output.name === "stderr" ? "rounded bg-amber-50 p-2 text-amber-900 dark:bg-amber-950/50 dark:text-amber-200" : "text-zinc-800 dark:text-zinc-200"}`}
        >
          {output.text}
        </pre>
      );
    case "image":
      return (
        // eslint-disable-next-line @next/next/no-img-element -- a data: URL from the downloaded notebook
        <img src={output.src} alt={output.alt} className="h-auto max-w-full self-start rounded border border-zinc-200 bg-white dark:border-zinc-700" />
      );
    case "text":
      return <pre className={`${TEXT} text-zinc-800 dark:text-zinc-200`}>{output.text}</pre>;
    case "error":
      return (
        <div role="group" aria-label={`Error: ${output.ename}`} className="rounded border border-red-200 bg-red-50 p-2 dark:border-red-900 dark:bg-red-950/50">
          <p className="font-mono text-xs font-semibold text-red-800 dark:text-red-300">
            {output.ename}
            {output.evalue ? `: ${output.evalue}` : ""}
          </p>
          {output.traceback && (
            <details className="mt-1">
              <summary className="cursor-pointer text-xs text-red-700 dark:text-red-300">Traceback</summary>
              <pre tabIndex={0} className={`${TEXT} mt-1 text-red-900 dark:text-red-200`}>
                {output.traceback}
              </pre>
            </details>
          )}
        </div>
      );
  }
}
