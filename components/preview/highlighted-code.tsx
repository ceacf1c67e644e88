"use client";

import { Prism, useTokenize } from "prism-react-renderer";
import { cn } from "@/components/ui/cn";
import { BLOCK_CLASS, TOKEN_CLASS, blockVars, tokenVars } from "@/components/chat/prism-styles";

interface HighlightedCodeProps {
  code: string;
  /** Names the block for screen readers, e.g. "Final code". */
  label: string;
  language?: string;
  className?: string;
}

/**
 * A read-only, syntax-highlighted, keyboard-scrollable code block (tokens
 * rendered as text), in the same colours as the chat's code blocks: both
 * themes ride along as CSS variables, so light and dark need no script.
 */
export function HighlightedCode({ code, label, language = "python", className }: HighlightedCodeProps) {
  const tokens = useTokenize({ prism: Prism, code, grammar: Prism.languages[language], language });
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      style={blockVars}
      className={cn("focus-ring overflow-auto rounded-lg border p-3 font-mono text-xs leading-relaxed", BLOCK_CLASS, className)}
    >
      <code>
        {tokens.map((line, i) => (
          <div key={i}>
            {line.map((token, j) =>
              token.empty ? (
                <span key={j} className="inline-block">
                  {"\n"}
                </span>
              ) : (
                <span key={j} className={TOKEN_CLASS} style={tokenVars(language, token.types)}>
                  {token.content}
                </span>
              ),
            )}
          </div>
        ))}
      </code>
    </pre>
  );
}
