"use client";

import { FileCode2 } from "lucide-react";
import { Card, CardTitle } from "@/components/ui/card";
import type { Entry } from "@/lib/client/message-parts";
import { CodeBlock } from "./code-block";

export interface FinalCodeBlockProps {
  /** The coder's final code item with its place in the transcript. */
  message: Entry<"final_code">;
}

/** Models often open and close their code with a newline; the code block shows the code itself. */
const edgeNewlines = (s: string) => s.replace(/^\r?\n/, "").replace(/\r?\n$/, "");

/** The run's deliverable: the function and its test, each with its own Copy button. */
export function FinalCodeBlock({ message }: FinalCodeBlockProps) {
  const final = { code: edgeNewlines(message.item.code), test: edgeNewlines(message.item.test) };
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full">
      <Card asChild tone="success">
        <section data-testid="final-code-block">
          <CardTitle className="flex items-center gap-1.5">
            <FileCode2 aria-hidden="true" className="size-4 text-success" />
            Coder · final code
          </CardTitle>
          <CodeBlock code={final.code} title="Function" copyWhat="function" />
          {final.test && <CodeBlock code={final.test} title="Test" copyWhat="test" />}
        </section>
      </Card>
    </article>
  );
}
