"use client";

import { useEffect, useState } from "react";
import type { FunctionSummaryView, FunctionVersionView } from "@/lib/foundation/protocol/functions";

export interface FunctionVersionsState {
  status: "idle" | "loading" | "ready" | "error";
  /** Every function the session keeps, newest first. */
  functions: FunctionSummaryView[];
  /** The function the Code tab shows: the one the person chose, else the newest; null when none is kept yet. */
  current: FunctionSummaryView | null;
  /** The current function's versions, oldest first. */
  versions: FunctionVersionView[];
  error: string | null;
}

async function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(url, { credentials: "same-origin", cache: "no-store", signal });
  const body = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!res.ok) throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  return body as T;
}

const EMPTY = { functions: [], current: null, versions: [], error: null };

/**
 * The session's kept functions and the versions of the one shown (`chosen`,
 * else the newest), fetched while the Code tab is open and again whenever
 * `refresh` changes (the page passes the final code, which changes when a
 * coder run ends and a version is kept) or another function is chosen.
 */
export function useFunctionVersions(sessionId: string | null, chosen: string | null, refresh: string, active: boolean): FunctionVersionsState {
  const [state, setState] = useState<FunctionVersionsState & { key: string | null }>({ key: null, status: "idle", ...EMPTY });
  const key = sessionId ? `${sessionId}:${chosen ?? ""}:${refresh}` : null;

  useEffect(() => {
    if (!active || !sessionId || key === null || state.key === key) return;
    const ctrl = new AbortController();
    setState((s) => ({ ...s, status: "loading", error: null }));
    const base = `/api/sessions/${encodeURIComponent(sessionId)}/functions`;
    (async () => {
      try {
        const { functions } = await getJson<{ functions: FunctionSummaryView[] }>(base, ctrl.signal);
        const current = functions.find((f) => f.name === chosen) ?? functions[0] ?? null;
        const versions = current ? (await getJson<{ versions: FunctionVersionView[] }>(`${base}/${encodeURIComponent(current.name)}/versions`, ctrl.signal)).versions : [];
        setState({ key, status: "ready", functions, current, versions, error: null });
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

  // Another session's functions never show, even for a moment.
  if (!key || !state.key?.startsWith(`${sessionId}:`)) return { status: state.status === "loading" ? "loading" : "idle", ...EMPTY };
  return { status: state.status, functions: state.functions, current: state.current, versions: state.versions, error: state.error };
}
