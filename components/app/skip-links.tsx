"use client";

import type { MouseEvent } from "react";

/** Where each skip link takes focus: the message box, or the conversation (the empty chat's main area before one exists). */
const TARGETS = [
  { label: "Skip to the message box", selector: "#composer-text" },
  { label: "Skip to the conversation", selector: '[role="log"][aria-label="Conversation"], main' },
] as const;

const LINK =
  "sr-only rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:px-3 focus:py-2 focus-ring";

/**
 * The first tab stops of the page: visible only while focused, they jump past
 * the sessions list straight to where a keyboard user most often wants to be.
 * Focus is moved by script (a fragment link alone scrolls but does not always
 * focus), and the conversation falls back to the chat area before it exists.
 */
export function SkipLinks() {
  const go = (selector: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    const target = document.querySelector<HTMLElement>(selector);
    if (!target) return;
    e.preventDefault();
    if (!target.hasAttribute("tabindex") && !target.matches("textarea, input, button, a[href]")) target.tabIndex = -1;
    target.focus();
  };
  return (
    <nav aria-label="Skip links" className="contents">
      {TARGETS.map((t) => (
        <a key={t.label} href={t.selector.startsWith("#") ? t.selector : "#main"} onClick={go(t.selector)} className={LINK} data-testid="skip-link">
          {t.label}
        </a>
      ))}
    </nav>
  );
}
