"use client";

import { Highlight, themes } from "prism-react-renderer";
import { usePrefersDark } from "./use-prefers-dark";

interface HighlightedCodeProps {
  code: string;
  /** Names the block for screen readers, e.g. "Final code". */
  label: string;
  language?: string;
  className?: string;
}

/** A read-only, syntax-highlighted, keyboard-scrollable code block (tokens rendered as text). */
export function HighlightedCode({ code, label, language = "python", className = "" }: HighlightedCodeProps) {
  const dark = usePrefersDark();
  return (
    <Highlight theme={dark ? themes.vsDark : themes.github} code={code} language={language}>
      {({ style, tokens, getLineProps, getTokenProps }) => (
        <pre
          tabIndex={0}
          aria-label={label}
          style={style}
          className={`overflow-auto rounded-md border border-zinc-200 p-3 font-mono text-xs leading-relaxed focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-zinc-700 ${className}`}
        >
          <code>
            {tokens.map((line, i) => (
              <div key={i} {...getLineProps({ line })}>
                {line.map((token, j) => (
                  <span key={j} {...getTokenProps({ token })} />
                ))}
              </div>
            ))}
          </code>
        </pre>
      )}
    </Highlight>
  );
}
