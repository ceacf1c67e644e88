"use client";

import { isValidElement, memo, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { classifyLink } from "@/lib/client/message-parts";
import { CodeBlock } from "./code-block";

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/**
 * Element overrides. Raw HTML in the Markdown is never parsed into elements
 * (no rehype-raw): react-markdown turns it into visible text.
 */
const plugins = [remarkGfm];

const components: Components = {
  a({ href, children }) {
    const target = classifyLink(href);
    if (target.kind === "inert") return <span className="underline decoration-dotted">{children}</span>;
    const external = target.kind === "external";
    return (
      <a
        href={target.href}
        {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
        className="text-link underline underline-offset-2 hover:opacity-80"
      >
        {children}
        {external && <span className="sr-only"> (opens in a new tab)</span>}
      </a>
    );
  },
  img({ src, alt }) {
    const url = typeof src === "string" ? src : "";
    // Only pictures Argus itself serves are loaded; a remote image in model
    // output could be a tracking pixel, so it becomes a link instead.
    if (url.startsWith("/api/files/")) {
      return (
        <a href={url} target="_blank" rel="noopener noreferrer">
          <img src={url} alt={alt ?? ""} loading="lazy" className="my-2 max-h-80 max-w-full rounded-md border" />
        </a>
      );
    }
    const target = classifyLink(url);
    const label = `Image: ${alt || url || "(no address)"}`;
    return target.kind === "external" ? (
      <a href={target.href} target="_blank" rel="noopener noreferrer" className="text-link underline">
        {label}
      </a>
    ) : (
      <span>{label}</span>
    );
  },
  pre({ children }) {
    // A fenced block is <pre><code class="language-x">…</code></pre>.
    const code = isValidElement<{ className?: string; children?: ReactNode }>(children) ? children : null;
    const lang = /language-([\w+#-]+)/.exec(code?.props.className ?? "")?.[1] ?? "text";
    return <CodeBlock code={textOf(code?.props.children ?? children).replace(/\n$/, "")} language={lang} title={lang === "text" ? "Code" : undefined} />;
  },
  table({ children }) {
    return (
      <div className="my-2 overflow-x-auto">
        <table className="border-collapse text-sm">{children}</table>
      </div>
    );
  },
};

// Element styling via descendant selectors keeps the override list short.
const PROSE =
  "break-words leading-relaxed [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground " +
  "[&_h1]:mt-3 [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:font-semibold " +
  "[&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_li]:my-0.5 [&_p]:my-2 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0 " +
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-muted [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.85em] " +
  "[&_td]:border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:bg-muted [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_hr]:my-3";

/** Model-written Markdown (GFM), rendered safely; memoised because parsing is the costly part. */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className={PROSE}>
      <Markdown remarkPlugins={plugins} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
