"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { MessageList } from "@/components/chat/message-list";
import { StatusLine } from "@/components/chat/status-line";
import { Composer } from "@/components/composer/composer";
import { PreviewSection } from "@/components/preview/preview-section";
import { api, ApiError, type SessionSummary } from "@/lib/client/api";
import { regionsMessage, type Polygon } from "@/lib/client/polygons";
import { useSessionStream } from "@/lib/client/use-session-stream";
import type { UploadView } from "@/lib/protocol/files";
import { ModelBanner } from "@/components/model-banner";
import { SessionSidebar } from "./session-sidebar";
import { useChatActions } from "./use-chat-actions";

const ACTIVE = new Set(["loading", "running", "awaiting_user_input"]);
const ENDED = new Set(["finished", "error", "stopped", "rejected", "interrupted"]);

function sessionFromUrl(): string | null {
  if (typeof window === "undefined") return null;
  return new URLSearchParams(window.location.search).get("s");
}

/** The whole chat: sessions, the streamed conversation, the composer and the preview pane. */
export function ChatApp({ modelConfigured, maxUploadBytes }: { modelConfigured: boolean; maxUploadBytes: number }) {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [uploads, setUploads] = useState<UploadView[]>([]);
  const [polygons, setPolygons] = useState<Polygon[]>([]);
  const [notebookVersion, setNotebookVersion] = useState(0);
  const [panel, setPanel] = useState<"none" | "sessions" | "preview">("none");
  const [loadError, setLoadError] = useState<string | null>(null);
  const stream = useSessionStream(currentId);
  const currentRef = useRef<string | null>(null);
  currentRef.current = currentId;

  const refreshSessions = useCallback(() => {
    api.listSessions().then(setSessions, () => undefined);
  }, []);

  const select = useCallback((id: string | null) => {
    setCurrentId(id);
    setUploads([]);
    setPolygons([]);
    setPanel("none");
    const url = id ? `/?s=${id}` : "/";
    window.history.replaceState(null, "", url);
  }, []);

  // First load: the session named in the URL, and the list of this browser's sessions.
  useEffect(() => {
    refreshSessions();
    const id = sessionFromUrl();
    if (id) select(id);
  }, [refreshSessions, select]);

  // A selected session: its transcript (the socket then streams the rest) and uploads.
  useEffect(() => {
    if (!currentId) return;
    setLoadError(null);
    api.getSession(currentId).then(
      (detail) => stream.absorb(detail.messages),
      (e: unknown) => setLoadError(e instanceof ApiError ? e.message : "This chat could not be loaded."),
    );
    api.uploads(currentId).then(setUploads, () => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentId]);

  const ensureSession = useCallback(async () => {
    if (currentRef.current) return currentRef.current;
    const { id } = await api.createSession();
    currentRef.current = id;
    select(id);
    refreshSessions();
    return id;
  }, [refreshSessions, select]);

  const onUploaded = useCallback((u: UploadView) => setUploads((list) => [...list, u]), []);
  const actions = useChatActions(ensureSession, onUploaded);

  const agentState = stream.state?.agentState ?? null;
  const running = agentState !== null && ACTIVE.has(agentState);
  const waiting = agentState === "awaiting_user_input";

  // When a run ends, the notebook and the session list (title) may have changed.
  useEffect(() => {
    if (agentState && ENDED.has(agentState)) {
      setNotebookVersion((v) => v + 1);
      refreshSessions();
    }
  }, [agentState, refreshSessions]);

  // New cells may have run: the notebook tab refetches when this changes.
  const observations = stream.messages.filter((m) => m.role === "observation").length;
  useEffect(() => setNotebookVersion((v) => v + 1), [observations]);

  const pendingSeq = useMemo(() => {
    if (!waiting) return undefined;
    return [...stream.messages].reverse().find((m) => m.role === "interaction")?.seq;
  }, [waiting, stream.messages]);

  const send = async (text: string) => {
    const regions = polygons.length ? `\n\n${regionsMessage(polygons)}` : "";
    const ok = await actions.send(`${text}${regions}`.trim());
    if (ok) {
      setPolygons([]);
      refreshSessions();
    }
    return ok;
  };

  const retry = async () => {
    const last = [...stream.messages].reverse().find((m) => m.role === "user");
    return last ? actions.send(last.content) : false;
  };

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      {!modelConfigured && (
        <div className="p-2">
          <ModelBanner configured={false} />
        </div>
      )}
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 md:hidden dark:border-zinc-800">
        <button type="button" className="rounded border px-2 py-1 text-sm" onClick={() => setPanel(panel === "sessions" ? "none" : "sessions")} aria-expanded={panel === "sessions"}>
          Chats
        </button>
        <span className="flex-1 truncate text-sm font-semibold">Argus</span>
        <button type="button" className="rounded border px-2 py-1 text-sm" data-testid="open-preview" onClick={() => setPanel(panel === "preview" ? "none" : "preview")} aria-expanded={panel === "preview"}>
          Preview
        </button>
      </div>
      <div className="relative flex min-h-0 flex-1">
        <aside
          className={`${panel === "sessions" ? "absolute inset-y-0 left-0 z-20 w-72 bg-white shadow-xl dark:bg-zinc-950" : "hidden"} border-r border-zinc-200 md:static md:block md:w-64 md:shadow-none dark:border-zinc-800`}
        >
          <div className="hidden px-4 pt-3 text-lg font-semibold md:block">Argus</div>
          <SessionSidebar
            sessions={sessions}
            currentId={currentId}
            onSelect={select}
            onNew={() => select(null)}
            onRename={(id, title) => void api.renameSession(id, title).then(refreshSessions)}
            onDelete={(id) =>
              void api.deleteSession(id).then(() => {
                if (id === currentId) select(null);
                refreshSessions();
              })
            }
          />
        </aside>
        <main className="flex min-w-0 flex-1 flex-col" aria-label="Chat">
          <StatusLine state={stream.state} connected={currentId === null || stream.connected} />
          {loadError && (
            <p role="alert" className="m-3 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
              {loadError}
            </p>
          )}
          <div className="min-h-0 flex-1">
            {stream.messages.length === 0 && !currentId ? (
              <div className="flex h-full items-center justify-center p-8 text-center text-zinc-500">
                <p>
                  Drop in images or a short video and ask a vision question —
                  <br />
                  “how many coins are on the table?”, “read the serial number”.
                </p>
              </div>
            ) : (
              <MessageList
                key={currentId ?? "new"}
                messages={stream.messages}
                pendingSeq={pendingSeq}
                onAnswer={(text) => actions.send(text, "interaction_response")}
                onRetry={retry}
              />
            )}
          </div>
          {actions.error && (
            <p role="alert" data-testid="send-error" className="mx-3 mb-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
              {actions.error}
            </p>
          )}
          <Composer
            attachments={actions.attachments}
            running={running}
            waitingForAnswer={waiting}
            maxUploadBytes={maxUploadBytes}
            onFiles={(files) => void actions.attach(files)}
            onRefused={actions.refuse}
            onRemove={actions.remove}
            onSend={send}
            onStop={() => void actions.stop()}
          />
        </main>
        <aside
          aria-label="Preview"
          className={`${panel === "preview" ? "absolute inset-0 z-20 overflow-y-auto bg-white dark:bg-zinc-950" : "hidden"} border-l border-zinc-200 md:static md:block md:w-[42%] md:max-w-2xl md:overflow-y-auto dark:border-zinc-800`}
        >
          {panel === "preview" && (
            <button type="button" className="m-2 rounded border px-2 py-1 text-sm md:hidden" onClick={() => setPanel("none")}>
              Close preview
            </button>
          )}
          <PreviewSection
            sessionId={currentId}
            messages={stream.messages}
            uploads={uploads}
            polygons={polygons}
            onPolygonsChange={setPolygons}
            notebookVersion={notebookVersion}
          />
        </aside>
      </div>
    </div>
  );
}
