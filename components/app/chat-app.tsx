"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { MessageList } from "@/components/chat/message-list";
import { ModelPicker } from "@/components/chat/model-picker";
import { StatusLine } from "@/components/chat/status-line";
import { Composer, type ComposerDraft } from "@/components/composer/composer";
import { ModelBanner } from "@/components/model-banner";
import { PreviewSection } from "@/components/preview/preview-section";
import { usePreviewPane } from "@/components/preview/use-preview-pane";
import { Alert } from "@/components/ui/alert";
import { api, ApiError, type SessionSummary } from "@/lib/client/api";
import { isEntry } from "@/lib/client/message-parts";
import { regionsMessage, type Polygon } from "@/lib/client/polygons";
import { isRefusedSession } from "@/lib/client/session-refusal";
import { useSessionStream } from "@/lib/client/use-session-stream";
import type { SessionSettingsView } from "@/lib/foundation/protocol/api";
import type { UploadView } from "@/lib/foundation/protocol/files";
import { AppLayout, type Panel } from "./app-layout";
import { ChatUnavailable } from "./chat-unavailable";
import { EmptyChat } from "./empty-chat";
import { EXAMPLE, loadExampleImage } from "./example";
import { SessionSidebar } from "./session-sidebar";
import { useBatchReveal } from "./use-batch-reveal";
import { useChatActions } from "./use-chat-actions";
import { useWaitingTitle } from "./use-waiting-title";

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
  const [settings, setSettings] = useState<SessionSettingsView>({});
  const [panel, setPanel] = useState<Panel>("none");
  const [loadError, setLoadError] = useState<string | null>(null);
  // The server would not open this session for this browser: stop asking.
  const [refusedByApi, setRefusedByApi] = useState(false);
  const [draft, setDraft] = useState<ComposerDraft | null>(null);
  // Counts the person's sends: each one makes the transcript follow the run again.
  const [sends, setSends] = useState(0);
  // The session whose transcript has been fetched (so "no messages" means an empty chat, not "still loading").
  const [loadedId, setLoadedId] = useState<string | null>(null);
  const stream = useSessionStream(refusedByApi ? null : currentId);
  const refused = refusedByApi || stream.refused;
  const currentRef = useRef<string | null>(null);
  // Settings saved since a transcript fetch began: that fetch's older settings must not win.
  const settingsWrites = useRef(0);
  currentRef.current = currentId;

  const refreshSessions = useCallback(() => {
    api.listSessions().then(setSessions, () => undefined);
  }, []);

  const pane = usePreviewPane();
  const resetPane = pane.reset;
  const startedBatch = useBatchReveal(currentId, pane.select, setPanel);
  const select = useCallback((id: string | null) => {
    // Another session's pane starts over; the session a first message just made keeps what the person chose.
    if (currentRef.current !== id) resetPane();
    setCurrentId(id);
    setUploads([]);
    setPolygons([]);
    setSettings({});
    setPanel("none");
    setRefusedByApi(false);
    const url = id ? `/?s=${id}` : "/";
    window.history.replaceState(null, "", url);
  }, [resetPane]);

  // First load: the session named in the URL, and the list of this browser's sessions.
  useEffect(() => {
    refreshSessions();
    const id = sessionFromUrl();
    if (id) select(id);
  }, [refreshSessions, select]);

  // A selected session: its transcript (the socket then streams the rest) and uploads.
  useEffect(() => {
    if (!currentId) return;
    let current = true;
    const writes = settingsWrites.current;
    setLoadError(null);
    api.getSession(currentId).then(
      (detail) => {
        if (!current) return;
        stream.absorb(detail.messages);
        if (settingsWrites.current === writes) setSettings(detail.settings ?? {});
        setLoadedId(currentId);
      },
      (e: unknown) => {
        if (!current) return;
        if (isRefusedSession(e)) setRefusedByApi(true);
        else setLoadError(e instanceof ApiError ? e.message : "This chat could not be loaded.");
      },
    );
    api.uploads(currentId).then((u) => current && setUploads(u), () => undefined);
    return () => {
      current = false;
    };
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
  useWaitingTitle(waiting && !refused);

  // When a run ends, the notebook and the session list (title) may have changed,
  // and the browser may have saved pictures into the session as uploads.
  useEffect(() => {
    if (agentState && ENDED.has(agentState)) {
      setNotebookVersion((v) => v + 1);
      refreshSessions();
      const id = currentRef.current;
      if (id) api.uploads(id).then((u) => currentRef.current === id && setUploads(u), () => undefined);
    }
  }, [agentState, refreshSessions]);

  // New cells may have run: the notebook tab refetches when this changes.
  const observations = stream.messages.filter((m) => m.item.type === "cell_output" || m.item.type === "output" || m.item.type === "browser_screen").length;
  useEffect(() => setNotebookVersion((v) => v + 1), [observations]);

  const changeBrowserPolicy = useCallback(async (browserPolicyChecks: "ask" | "never") => {
    const id = currentRef.current;
    if (!id) return false;
    const saved = await api.updateSettings(id, { browserPolicyChecks });
    if (currentRef.current === id) setSettings(saved.settings);
    return true;
  }, []);

  // The chat's models (the picker): a chat with no message yet is created first, to remember them.
  const changeModels = useCallback(
    async (models: NonNullable<SessionSettingsView["models"]>) => {
      const id = await ensureSession();
      settingsWrites.current += 1;
      const saved = await api.updateSettings(id, { models });
      // Again once saved: a transcript fetch begun meanwhile (the chat was just made) read older settings.
      settingsWrites.current += 1;
      if (currentRef.current === id) setSettings(saved.settings);
    },
    [ensureSession],
  );

  const pendingSeq = useMemo(() => {
    if (!waiting) return undefined;
    return [...stream.messages].reverse().find((m) => isEntry(m, "question", "tool_review", "safety_check"))?.seq;
  }, [waiting, stream.messages]);

  const send = async (text: string) => {
    const regions = polygons.length ? `\n\n${regionsMessage(polygons)}` : "";
    setSends((n) => n + 1);
    const ok = await actions.send(`${text}${regions}`.trim());
    if (ok) {
      setPolygons([]);
      refreshSessions();
    }
    return ok;
  };

  // Retry continues the failed run from its failed step (the message is not posted again).
  const retry = async () => {
    const failed = [...stream.messages].reverse().find((m) => isEntry(m, "error") && m.runId !== null);
    return failed?.runId ? actions.redo({ kind: "continue", runId: failed.runId }) : false;
  };
  const redo = useMemo(
    () => ({
      onEdit: (seq: number, text: string) => actions.redo({ kind: "edit", seq }, text),
      onRegenerate: (seq: number) => actions.redo({ kind: "regenerate", seq }),
      onContinue: (runId: string) => actions.redo({ kind: "continue", runId }),
    }),
    [actions],
  );

  // The sample picture goes up like any attachment; the question waits in the composer to be sent.
  const tryExample = async () => {
    setDraft({ text: EXAMPLE.question, id: Date.now() });
    const file = await loadExampleImage().catch((e: unknown) => {
      actions.setError(e instanceof Error ? e.message : String(e));
      return null;
    });
    if (file) await actions.attach([file]);
  };

  const sidebar = (
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
  );

  const preview = (
    <PreviewSection
      sessionId={refused ? null : currentId}
      messages={stream.messages}
      uploads={uploads}
      polygons={polygons}
      onPolygonsChange={setPolygons}
      notebookVersion={notebookVersion}
      pane={pane}
      startedBatch={startedBatch}
      browserPolicy={settings.browserPolicyChecks ?? "ask"}
      onBrowserPolicyChange={changeBrowserPolicy}
    />
  );

  return (
    <AppLayout banner={!modelConfigured && <div className="p-2"><ModelBanner configured={false} /></div>} sidebar={sidebar} preview={preview} panel={panel} onPanelChange={setPanel}>
      {refused ? (
        <ChatUnavailable onNewChat={() => select(null)} />
      ) : (
        <>
          <StatusLine state={stream.state} connected={currentId === null || stream.connected} />
          {modelConfigured && <ModelPicker chosen={settings.models ?? {}} onChange={changeModels} disabled={running} />}
          {loadError && (
            <Alert className="m-3">{loadError}</Alert>
          )}
          <div className="min-h-0 flex-1">
            {stream.messages.length === 0 && (!currentId || loadedId === currentId) ? (
              <EmptyChat onTryExample={tryExample} />
            ) : (
              <MessageList
                key={currentId ?? "new"}
                messages={stream.messages}
                pendingSeq={pendingSeq}
                onAnswer={(answer, seq) => actions.send(answer.text, "interaction_response", seq, answer.choice)}
                onRetry={retry}
                redo={redo}
                live={{ drafts: stream.drafts, state: stream.state }}
                followSignal={sends}
              />
            )}
          </div>
          {actions.error && (
            <Alert data-testid="send-error" className="mx-auto mb-1 w-[calc(100%-2rem)] max-w-3xl">
              {actions.error}
            </Alert>
          )}
          <Composer
            attachments={actions.attachments}
            running={running}
            waitingForAnswer={waiting}
            maxUploadBytes={maxUploadBytes}
            draft={draft}
            onFiles={(files) => void actions.attach(files)}
            onRefused={actions.refuse}
            onRemove={actions.remove}
            onSend={send}
            onStop={() => void actions.stop()}
          />
        </>
      )}
    </AppLayout>
  );
}
