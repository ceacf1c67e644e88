"use client";

import { useMemo } from "react";
import { parseFinalCode } from "@/lib/client/message-parts";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { CodeBlock } from "./code-block";

export interface FinalCodeBlockProps {
  /** A coder message of the form `<final_code>…</final_code>\n<final_test>…</final_test>`. */
  message: StreamedMessage;
}

/** The run's deliverable: the function and its test, each with its own Copy button. */
export function FinalCodeBlock({ message }: FinalCodeBlockProps) {
  const final = useMemo(() => parseFinalCode(message.content), [message.content]);
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full">
      <section data-testid="final-code-block" className="rounded-lg border border-emerald-300 bg-white p-3 dark:border-emerald-800 dark:bg-zinc-900">
        <h3 className="text-sm font-semibold">Coder · final code</h3>
        {final ? (
          <>
            <CodeBlock code={final.code} title="Function" copyWhat="function" />
            {final.test && <CodeBlock code={final.test} title="Test" copyWhat="test" />}
          </>
        ) : (
          <pre className="mt-2 text-xs whitespace-pre-wrap break-words">{message.content}</pre>
        )}
      </section>
    </article>
  );
}
