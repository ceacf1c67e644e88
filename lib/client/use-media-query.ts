"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches, kept up to date. The server (and the
 * first client render, for hydration) assumes `serverDefault`; the layout's
 * CSS classes must already look right in that case.
 */
export function useMediaQuery(query: string, serverDefault: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const mq = window.matchMedia(query);
      mq.addEventListener("change", onChange);
      return () => mq.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => serverDefault,
  );
}

/** Tailwind's `md` breakpoint: the sessions list and the preview sit beside the chat from here up. */
export const WIDE_QUERY = "(min-width: 768px)";
