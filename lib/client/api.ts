import type { InteractionChoice } from "@/lib/foundation/protocol/interaction-choice";
import type { RedoRequest } from "@/lib/foundation/protocol/redo";
import type { StreamedMessage } from "@/lib/foundation/protocol/agent-message";
import type { UploadView } from "@/lib/foundation/protocol/files";
import type { FunctionTokenCreated } from "@/lib/foundation/protocol/functions";
import type { SessionSettingsView } from "@/lib/foundation/protocol/api";
import type { ModelChoices } from "@/lib/foundation/protocol/model-choices";
import type { PendingInteraction, SessionSummary } from "@/lib/foundation/protocol/sessions";
import { browserProofHeaders, rememberBrowserProof } from "./browser-proof";

export type { SessionSummary };

/** A refusal from the server, with its readable message (shown to the person as is). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function request<T>(method: string, url: string, body?: unknown, raw?: BodyInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { ...browserProofHeaders(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "unavailable:network", "The server can't be reached. Check the connection; nothing you typed is lost.");
  }
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string; field?: string } } | null;
  if (!res.ok) {
    const e = data?.error;
    throw new ApiError(res.status, e?.code ?? "internal:api", e?.message ?? `The server answered ${res.status}.`, e?.field);
  }
  return data as T;
}


export interface SessionDetail {
  id: string;
  title: string | null;
  state: string;
  /** Absent from servers older than the setting; unset keys take their defaults. */
  settings?: SessionSettingsView;
  messages: StreamedMessage[];
  pendingInteraction?: PendingInteraction;
}

export const api = {
  listSessions: () => request<{ sessions: SessionSummary[] }>("GET", "/api/sessions").then((r) => r.sessions),
  createSession: () =>
    request<{ id: string; browserProof?: string }>("POST", "/api/sessions").then((r) => {
      rememberBrowserProof(r.browserProof);
      return r;
    }),
  getSession: (id: string) => request<SessionDetail>("GET", `/api/sessions/${id}`),
  renameSession: (id: string, title: string) => request("PATCH", `/api/sessions/${id}`, { title }),
  updateSettings: (id: string, settings: SessionSettingsView) =>
    request<{ id: string; settings: SessionSettingsView }>("PATCH", `/api/sessions/${id}`, { settings }),
  /** What the chat's model picker offers: the endpoint's models (asked by the server) and each role's server model. */
  models: () => request<ModelChoices>("GET", "/api/models"),
  deleteSession: (id: string) => request("DELETE", `/api/sessions/${id}`),
  uploads: (id: string) => request<{ uploads: UploadView[] }>("GET", `/api/sessions/${id}/uploads`).then((r) => r.uploads),
  upload: (id: string, file: File) => {
    const form = new FormData();
    form.set("file", file, file.name);
    return request<UploadView>("POST", `/api/sessions/${id}/uploads`, undefined, form);
  },
  send: (id: string, body: { role: "user" | "interaction_response"; content: string; media?: string[]; answers?: number; choice?: InteractionChoice; redo?: RedoRequest }) =>
    request<{ runId: string; resumed: boolean }>("POST", `/api/sessions/${id}/messages`, body),
  cancel: (id: string) => request<{ runId: string }>("POST", `/api/sessions/${id}/cancel`),
  createFunctionToken: (id: string) => request<FunctionTokenCreated>("POST", `/api/sessions/${id}/function-tokens`),
};
