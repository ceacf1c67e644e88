"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { sessionWaits } from "@/lib/client/session-waits";
import { waitWords } from "@/lib/foundation/protocol/waits";

/**
 * What a running step says under its code: what the run waits for while it waits (a notebook
 * starting, a free kernel), with the seconds counted here, else that the code is running.
 */
export function WaitNote() {
  const wait = useSyncExternalStore(sessionWaits.subscribe, sessionWaits.current, () => null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!wait) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait]);
  if (!wait) return <>Running the code…</>;
  return <span data-testid="wait-note" data-wait={wait.what}>{waitWords(wait, (now - wait.startedAt) / 1000)}</span>;
}
