"use client";

import { ListChecks } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import type { Entry } from "@/lib/client/message-parts";
import { CodeBlock } from "./code-block";

export interface PlanBlockProps {
  /** The planner's plan item with its place in the transcript. */
  message: Entry<"plan">;
}

/** The planner's final plan: the summary, numbered instructions, and its draft code behind a toggle. */
export function PlanBlock({ message }: PlanBlockProps) {
  const plan = message.item;
  const [showCode, setShowCode] = useState(false);
  const codeId = useId();
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full">
      <Card asChild>
        <section data-testid="plan-block">
          <CardTitle className="flex items-center gap-1.5">
            <ListChecks aria-hidden="true" className="size-4 text-muted-foreground" />
            Planner · plan
          </CardTitle>
          {
            <>
              {plan.plan && <p className="mt-2 text-sm whitespace-pre-wrap break-words">{plan.plan}</p>}
              {plan.instructions.length > 0 && (
                <ol className="mt-2 list-decimal space-y-1 pl-6 text-sm">
                  {plan.instructions.map((step, i) => (
                    <li key={i} className="whitespace-pre-wrap break-words">
                      {step}
                    </li>
                  ))}
                </ol>
              )}
              {plan.code && (
                <div className="mt-2">
                  <Button variant="link" size="xs" aria-expanded={showCode} aria-controls={codeId} onClick={() => setShowCode((s) => !s)}>
                    {showCode ? "Hide the plan's code" : "Show the plan's code"}
                  </Button>
                  <div id={codeId} hidden={!showCode}>
                    {showCode && <CodeBlock code={plan.code} title="Plan code" copyWhat="plan code" />}
                  </div>
                </div>
              )}
            </>
          }
        </section>
      </Card>
    </article>
  );
}
