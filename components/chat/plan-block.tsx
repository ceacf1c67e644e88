"use client";

import { useId, useMemo, useState } from "react";
import { parsePlan } from "@/lib/client/message-parts";
import type { StreamedMessage } from "@/lib/protocol/agent-message";
import { CodeBlock } from "./code-block";

export interface PlanBlockProps {
  /** A planner message of the form `<plan>{plan, instructions, code}</plan>`. */
  message: StreamedMessage;
}

/** The planner's final plan: the summary, numbered instructions, and its draft code behind a toggle. */
export function PlanBlock({ message }: PlanBlockProps) {
  const plan = useMemo(() => parsePlan(message.content), [message.content]);
  const [showCode, setShowCode] = useState(false);
  const codeId = useId();
  return (
    <article data-testid={`message-${message.role}`} data-seq={message.seq} className="max-w-full">
      <section data-testid="plan-block" className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900">
        <h3 className="text-sm font-semibold">Planner · plan</h3>
        {plan ? (
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
                <button
                  type="button"
                  aria-expanded={showCode}
                  aria-controls={codeId}
                  onClick={() => setShowCode((s) => !s)}
                  className="rounded text-xs text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
                >
                  {showCode ? "Hide the plan's code" : "Show the plan's code"}
                </button>
                <div id={codeId} hidden={!showCode}>
                  {showCode && <CodeBlock code={plan.code} title="Plan code" copyWhat="plan code" />}
                </div>
              </div>
            )}
          </>
        ) : (
          // Unreadable plan JSON: show what arrived rather than nothing.
          <pre className="mt-2 text-xs whitespace-pre-wrap break-words">{message.content}</pre>
        )}
      </section>
    </article>
  );
}
