"use client";

import { FileCode2 } from "lucide-react";
import { useMemo } from "react";
import { Card, CardTitle } from "@/components/ui/card";
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
      <Card asChild tone="success">
        <section data-testid="final-code-block">
          <CardTitle className="flex items-center gap-1.5">
            <FileCode2 aria-hidden="true" className="size-4 text-success" />
            Coder · final code
          </CardTitle>
          {final ? (
            <>
              <CodeBlock code={final.code} title="Function" copyWhat="function" />
              {final.test && <CodeBlock code={final.test} title="Test" copyWhat="test" />}
            </>
          ) : (
            <pre className="mt-2 text-xs whitespace-pre-wrap break-words">{message.content}</pre>
          )}
        </section>
      </Card>
    </article>
  );
}
