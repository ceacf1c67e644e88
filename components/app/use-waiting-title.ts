"use client";

import { useEffect } from "react";
import { baseTitle, waitingTitle } from "@/lib/client/waiting-title";

/** Puts "(1) Waiting for you" in the tab's title while the run waits on the person (waiting-title.ts). */
export function useWaitingTitle(waiting: boolean): void {
  useEffect(() => {
    const base = baseTitle(document.title);
    document.title = waitingTitle(base, waiting ? 1 : 0);
    return () => {
      document.title = base;
    };
  }, [waiting]);
}
