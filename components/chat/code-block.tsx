"use client";

import { memo } from "react";
import { Prism, useTokenize } from "prism-react-renderer";
import { CopyButton } from "./copy-button";
import { BLOCK_CLASS, TOKEN_CLASS, blockVars, tokenVars } from "./prism-styles";

const ALIASES: Record<string, string> = { py: "python", python3: "python", ipython: "python", js: "javascript", sh: "bash", shell: "bash" };

export interface CodeBlockProps {
  code: string;
  /** A Prism language name; unknown languages render as plain text. Default: python. */
  language?: string;
  /** Shown in the header, e.g. "Python", "Test". Defaults to the language. */
  title?: string;
  /** For the Copy button's accessible name: "Copy <what>". */
  copyWhat?: string;
}

/** Syntax-highlighted, scrollable code with a Copy button. Highlighting is memoised per code string. */
export const CodeBlock = memo(function CodeBlock({ code, language = "python", title, copyWhat = "code" }: CodeBlockProps) {
  const lang = ALIASES[language.toLowerCase()] ?? language.toLowerCase();
  const tokens = useTokenize({ prism: Prism, code, grammar: Prism.languages[lang], language: lang });
  const heading = title ?? (lang === "python" ? "Python" : lang || "Code");
  return (
    <figure className="my-2 overflow-hidden rounded-lg border">
      <figcaption className="flex items-center justify-between gap-2 border-b bg-muted py-0.5 pr-1 pl-3 text-xs font-medium text-muted-foreground">
        <span>{heading}</span>
        <CopyButton text={code} what={copyWhat} />
      </figcaption>
      <pre
        // Scrollable regions must be reachable by keyboard.
        tabIndex={0}
        aria-label={`${heading} code`}
        style={blockVars}
        className={`focus-ring-inset max-h-[32rem] overflow-auto p-3 font-mono text-[0.8125rem] leading-relaxed ${BLOCK_CLASS}`}
      >
        <code>
          {tokens.map((line, i) => (
            <div key={i}>
              {line.map((token, j) =>
                token.empty ? (
                  // An empty line still needs height.
                  <span key={j} className="inline-block">{"\n"}</span>
                ) : (
                  <span key={j} className={TOKEN_CLASS} style={tokenVars(lang, token.types)}>
                    {token.content}
                  </span>
                ),
              )}
            </div>
          ))}
        </code>
      </pre>
    </figure>
  );
});
