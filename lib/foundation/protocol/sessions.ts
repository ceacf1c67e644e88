/** Sessions as the browser and API clients see them. */
import type { StreamedMessage } from "./agent-message";
import type { SessionSettingsView } from "./api";

/** The question a session still owes an answer to (see lib/features/runtime/pending-interaction.ts). */
export interface PendingInteraction {
  seq: number;
  runId: string | null;
  kind: string;
  prompt: string;
  options: string[];
  payload: unknown;
}

/** One row of `GET /api/sessions`. */
export interface SessionSummary {
  id: string;
  title: string | null;
  state: string;
  createdAt: string;
  updatedAt: string;
}

/** `GET /api/sessions/:id`: the transcript. */
export interface SessionView {
  id: string;
  title: string | null;
  state: string;
  /** The settings the person changed (PATCH); unset keys take their defaults. */
  settings: SessionSettingsView;
  messages: StreamedMessage[];
  pendingInteraction?: PendingInteraction;
}
