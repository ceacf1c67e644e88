"use client";

import { useCallback, useState } from "react";
import { api, ApiError } from "@/lib/client/api";
import type { UploadView } from "@/lib/foundation/protocol/files";
import type { InteractionChoice } from "@/lib/foundation/protocol/interaction-choice";
import type { RedoRequest } from "@/lib/foundation/protocol/redo";

export interface Attachment {
  key: string;
  file: File;
  preview: string;
  status: "uploading" | "ready" | "failed";
  upload?: UploadView;
  error?: string;
}

/**
 * What the person can do in a session: attach files (uploaded at once, so
 * sending is quick), send a message or an answer, stop the run, retry. Errors
 * come back as readable text; what was typed is never thrown away on failure.
 */
export function useChatActions(ensureSession: () => Promise<string>, onUploaded: (u: UploadView) => void) {
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [error, setError] = useState<string | null>(null);

  const attach = useCallback(
    async (files: File[]) => {
      const sessionId = await ensureSession().catch((e: unknown) => {
        setError(e instanceof Error ? e.message : String(e));
        return null;
      });
      if (!sessionId) return;
      for (const file of files) {
        const key = `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`;
        const item: Attachment = { key, file, preview: URL.createObjectURL(file), status: "uploading" };
        setAttachments((a) => [...a, item]);
        try {
          const upload = await api.upload(sessionId, file);
          onUploaded(upload);
          setAttachments((a) => a.map((x) => (x.key === key ? { ...x, status: "ready", upload } : x)));
        } catch (e) {
          const message = e instanceof ApiError ? e.message : "The upload failed.";
          setAttachments((a) => a.map((x) => (x.key === key ? { ...x, status: "failed", error: message } : x)));
        }
      }
    },
    [ensureSession, onUploaded],
  );

  const refuse = useCallback((file: File, reason: string) => {
    const key = `${file.name}-refused-${Math.random().toString(36).slice(2)}`;
    setAttachments((a) => [...a, { key, file, preview: "", status: "failed", error: reason }]);
  }, []);

  const remove = useCallback((key: string) => {
    setAttachments((a) => {
      const gone = a.find((x) => x.key === key);
      if (gone?.preview) URL.revokeObjectURL(gone.preview);
      return a.filter((x) => x.key !== key);
    });
  }, []);

  /** Sends text (and the ready attachments); resolves true when the server accepted it. */
  const send = useCallback(
    async (content: string, role: "user" | "interaction_response" = "user", answers?: number, choice?: InteractionChoice): Promise<boolean> => {
      setError(null);
      const ready = attachments.filter((a) => a.status === "ready" && a.upload);
      if (attachments.some((a) => a.status === "uploading")) {
        setError("Wait for the uploads to finish, then send.");
        return false;
      }
      try {
        const sessionId = await ensureSession();
        await api.send(sessionId, {
          role,
          content,
          ...(ready.length && role === "user" ? { media: ready.map((a) => a.upload!.id) } : {}),
          ...(answers !== undefined ? { answers } : {}),
          ...(choice ? { choice } : {}),
        });
        if (role === "user") {
          for (const a of attachments) if (a.preview) URL.revokeObjectURL(a.preview);
          setAttachments([]);
        }
        return true;
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "The message could not be sent.");
        return false;
      }
    },
    [attachments, ensureSession],
  );

  /** Does a turn again (Retry, Continue, Regenerate, Edit: lib/foundation/protocol/redo.ts); resolves true when the server took it. */
  const redo = useCallback(
    async (request: RedoRequest, content = ""): Promise<boolean> => {
      setError(null);
      try {
        await api.send(await ensureSession(), { role: "user", content, redo: request });
        return true;
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "That could not be done.");
        return false;
      }
    },
    [ensureSession],
  );

  const stop = useCallback(async () => {
    try {
      await api.cancel(await ensureSession());
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The run could not be stopped.");
    }
  }, [ensureSession]);

  return { attachments, attach, refuse, remove, send, redo, stop, error, setError };
}
