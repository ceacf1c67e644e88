"use client";

import { useEffect, useState } from "react";
import { parseNotebook, type NotebookCellView } from "@/lib/client/preview-data";

export interface NotebookState {
  status: "idle" | "loading" | "ready" | "error";
  cells: NotebookCellView[];
  error: string | null;
  retry: () => void;
}

interface Loaded {
  key: string | null;
  sessionId: string | null;
  cells: NotebookCellView[];
  loading: boolean;
  error: string | null;
}

async function readError(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `The server answered ${res.status}.`;
}

/**
 * The session's notebook, fetched while `active` and again whenever `version`
 * changes (the page bumps it when a cell has run). The last good copy stays on
 * screen while a newer one loads.
 */
export function useNotebook(sessionId: string | null, version: number, active: boolean): NotebookState {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Loaded>({ key: null, sessionId: null, cells: [], loading: false, error: null });
  const key = sessionId ? `${sessionId}:${version}:${attempt}` : null;

  useEffect(() => {
    if (!active || !sessionId || key === null || state.key === key) return;
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    (async () => {
      try {
        const res = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/notebook`, {
          credentials: "same-origin",
          cache: "no-store",
          signal: ctrl.signal,
        });
        if (!res.ok) throw new Error(await readError(res));
        const cells = parseNotebook(await res.json());
        if (!cells) throw new Error("The server sent something that is not a notebook.");
        setState({ key, sessionId, cells, loading: false, error: null });
      } catch (e) {
        if (ctrl.signal.aborted) return;
        const message = e instanceof TypeError ? "The server can't be reached." : e instanceof Error ? e.message : String(e);
        setState((s) => ({ ...s, loading: false, error: message }));
      }
    })();
    return () => ctrl.abort();
    // state.key is read, not watched: a finished load must not trigger another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, sessionId, key]);

  // Cells of another session never show, even for a moment.
  const cells = state.sessionId === sessionId ? state.cells : [];
  const status = state.loading ? "loading" : state.error ? "error" : state.sessionId === sessionId && state.key ? "ready" : "idle";
  return { status, cells, error: state.error, retry: () => setAttempt((n) => n + 1) };
}
