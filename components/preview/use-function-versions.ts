"use client";

import { useEffect, useState } from "react";
import type { FunctionSummaryView, FunctionVersionView } from "@/lib/protocol/functions";

export interface FunctionVersionsState {
  status: "idle" | "loading" | "ready" | "error";
  /** The session's newest function (the one the Code tab shows), null when none is kept yet. */
  current: FunctionSummaryView | null;
  versions: FunctionVersionView[];
  error: string | null;
}

async function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: "same-origin", cache: "no-store", signal });
  const body = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!res.ok) throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  return body as T;
}

/**
 * The kept versions of the session's newest function, fetched while the Code
 * tab is open and again whenever `refresh` changes (the page passes the final
 * code, which changes when a coder run ends and a version is kept).
 */
export function useFunctionVersions(sessionId: string | null, refresh: string, active: boolean): FunctionVersionsState {
  const [state, setState] = useState<FunctionVersionsState & { key: string | null }>({ key: null, status: "idle", current: null, versions: [], error: null });
  const key = sessionId ? `${sessionId}:${refresh}` : null;

  useEffect(() => {
    if (!active || !sessionId || key === null || state.key === key) return;
    const ctrl = new AbortController();
    setState((s) => ({ ...s, status: "loading", error: null }));
    const base = `/api/sessions/${encodeURIComponent(sessionId)}/functions`;
    (async () => {
      try {
        const { functions } = await getJson<{ functions: FunctionSummaryView[] }>(base, ctrl.signal);
        const current = functions[0] ?? null;
        const versions = current ? (await getJson<{ versions: FunctionVersionView[] }>(`${base}/${encodeURIComponent(current.name)}/versions`, ctrl.signal)).versions : [];
        setState({ key, status: "ready", current, versions, error: null });
      } catch (e) {
        if (ctrl.signal.aborted) return;
        const message = e instanceof TypeError ? "The server can't be reached." : e instanceof Error ? e.message : String(e);
        setState((s) => ({ ...s, status: "error", error: message }));
      }
    })();
    return () => ctrl.abort();
    // state.key is read, not watched: a finished load must not trigger another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, sessionId, key]);

  // Another session's versions never show, even for a moment.
  if (!key || !state.key?.startsWith(`${sessionId}:`)) return { status: state.status === "loading" ? "loading" : "idle", current: null, versions: [], error: null };
  return { status: state.status, current: state.current, versions: state.versions, error: state.error };
}
