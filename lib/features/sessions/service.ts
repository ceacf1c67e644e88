import { mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import type { ArgusConfig } from "@/lib/foundation/config";
import type { BlobStore } from "@/lib/engines/db/blobs";
import type { Db } from "@/lib/engines/db/database";
import { blobInUse, filesOfSession } from "@/lib/engines/db/files";
import { batchBlobsOfSession } from "@/lib/engines/db/batches";
import { latestRun, runIdsOfSession } from "@/lib/engines/db/runs";
import {
  deleteSession as deleteSessionRow,
  getSession,
  insertSession,
  listSessionsByBrowser,
  setSessionTitle,
  type SessionRow,
} from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import { removeWorkspaceTree } from "@/lib/engines/files/workspace-tree";
import { removeCellOutputs } from "@/lib/engines/kernels/cell-record";
import type { KernelRegistry } from "@/lib/engines/kernels/registry";
import type { RunState } from "@/lib/foundation/protocol/state";
import type { EventLog } from "@/lib/features/runtime/event-log";
import type { KeyedMutex } from "@/lib/foundation/common/keyed-mutex";
import { pendingInteraction } from "@/lib/features/runtime/pending-interaction";
import type { SessionSummary, SessionView } from "@/lib/foundation/protocol/sessions";
import { SessionSettings, type SessionSettingsView } from "@/lib/foundation/protocol/api";

import { browserIdentityMatches, hashBrowserIdentity, hashSecret, newSecret, secretMatches } from "@/lib/foundation/common/secrets";

export interface SessionDeps {
  db: Db;
  blobs: BlobStore;
  events: EventLog;
  config: ArgusConfig;
  /** Serialises work on one workspace (uploads vs. a kernel adopting it). */
  locks: KeyedMutex;
  kernels: KernelRegistry | null;
  /** Active runs, so that deleting a session stops its run first. */
  runs?: { cancelIfActive(sessionId: string): void };
  /** The same, wherever the run executes (several instances): preferred over `runs` when present. */
  runRouter?: { cancelIfActive(sessionId: string): Promise<void> };
  /** Session browsers, so that deleting a session closes its pages (null without a browser model). */
  computers?: { close(sessionId: string): Promise<void> } | null;
  /** Kernels kept warm for the session's functions, given back when it is deleted. */
  functionCalls?: { closeSession(sessionId: string): Promise<void> } | null;
}
import { workspaceDir, workspaceLock } from "@/lib/foundation/common/workspace";
export { workspaceDir, workspaceLock };

/** How a request proves it may open a session. */
export interface Credentials {
  token: string | null;
  /** Every browser-cookie value the request carried (auth.ts readCookies): a session opens to any one bound to it. */
  browsers: string[];
  /** Whether the request came from Argus's own pages (see isSameOrigin). */
  sameOrigin: boolean;
  /** Reads are safe to authorise by cookie alone; writes need a token or same origin. */
  write: boolean;
}



export async function createSession(deps: SessionDeps, browser: string | null): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = newSecret();
  await insertSession(deps.db, {
    id,
    tokenHash: hashSecret(token),
    browserHash: browser ? hashBrowserIdentity(browser) : null,
    now: new Date().toISOString(),
  });
  mkdirSync(workspaceDir(deps.config, id), { recursive: true, mode: 0o700 });
  return { id, token };
}

/**
 * Opens a session for a request, or throws. No credentials → 401; anything
 * else that fails → 403 with the same words whether the session exists or
 * not, so a guessed id learns nothing.
 */
export async function authorizeSession(deps: SessionDeps, sessionId: string, cred: Credentials): Promise<SessionRow> {
  if (!cred.token && cred.browsers.length === 0) {
    throw new ArgusError(
      "unauthorized:session",
      "This session needs its token: send 'Authorization: Bearer <token>' or open it from the browser that created it.",
    );
  }
  const denied = new ArgusError("forbidden:session", "This session does not exist or your credentials do not open it.");
  const session = await getSession(deps.db, sessionId);
  if (!session) throw denied;
  if (cred.token && secretMatches(cred.token, session.tokenHash)) return session;
  const stored = session.browserHash;
  if (stored && cred.browsers.some((b) => browserIdentityMatches(b, stored))) {
    if (cred.write && !cred.sameOrigin) {
      throw new ArgusError(
        "forbidden:session",
        "Cross-site request refused: changes to a session must come from Argus's own page or carry the session token.",
      );
    }
    return session;
  }
  throw denied;
}

async function stateOf(deps: SessionDeps, sessionId: string): Promise<string> {
  // A run the full disk cut off has ended even though storage does not say so yet.
  const stored = await latestRun(deps.db, sessionId);
  return deps.events.latestRunState(sessionId, stored ? (stored.state as RunState) : null)?.agentState ?? "idle";
}

export async function listSessions(deps: SessionDeps, browsers: readonly string[]): Promise<SessionSummary[]> {
  // Several cookie values (another page of this host added one): the sessions of each, never
  // more than one list's worth. A value the server never minted is bound to nothing.
  const byId = new Map<string, SessionRow>();
  for (const hash of new Set(browsers.map(hashBrowserIdentity))) {
    for (const s of await listSessionsByBrowser(deps.db, hash)) byId.set(s.id, s);
  }
  const rows = [...byId.values()].sort((x, y) => (x.updatedAt === y.updatedAt ? x.id.localeCompare(y.id) : x.updatedAt < y.updatedAt ? 1 : -1)).slice(0, 200);
  return Promise.all(
    rows.map(async (s) => ({
      id: s.id,
      title: s.title,
      state: await stateOf(deps, s.id),
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    })),
  );
}

/** The stored settings as the API shows them: known keys with valid values only. */
export function settingsView(stored: Record<string, unknown>): SessionSettingsView {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(SessionSettings.shape)) {
    const checked = field.safeParse(stored[key]);
    if (checked.success && checked.data !== undefined) out[key] = checked.data;
  }
  return out as SessionSettingsView;
}

export async function sessionView(deps: SessionDeps, session: SessionRow): Promise<SessionView> {
  const events = await deps.events.eventsAfter(session.id, 0);
  const messages = await deps.events.messagesAfter(session.id, 0);
  const pending = pendingInteraction(events);
  return {
    id: session.id,
    title: session.title,
    state: await stateOf(deps, session.id),
    settings: settingsView(session.settings),
    messages,
    ...(pending ? { pendingInteraction: pending } : {}),
  };
}

export async function renameSession(deps: SessionDeps, session: SessionRow, title: string): Promise<void> {
  await setSessionTitle(deps.db, session.id, title, new Date().toISOString());
}

/** Deletes the session, its workspace, and every blob no other session still uses. */
export async function removeSession(deps: SessionDeps, session: SessionRow): Promise<void> {
  if (deps.runRouter) await deps.runRouter.cancelIfActive(session.id);
  else deps.runs?.cancelIfActive(session.id);
  await deps.kernels?.release(session.id);
  await deps.computers?.close(session.id).catch(() => undefined);
  // The workspace lock keeps an upload from landing half-way through a delete.
  await deps.locks.run(workspaceLock(session.id), async () => {
    const files = await filesOfSession(deps.db, session.id);
    const batchBlobs = await batchBlobsOfSession(deps.db, session.id);
    const runIds = await runIdsOfSession(deps.db, session.id);
    deps.events.forgetRuns(runIds);
    deps.events.forgetSession(session.id);
    await deleteSessionRow(deps.db, session.id);
    // After the row is gone: a call that opens a warm kernel from now on finds no session when it
    // ends and keeps none (warm-runners.ts). Not awaited: a call still running there ends on its
    // own time, then its kernel goes.
    void deps.functionCalls?.closeSession(session.id).catch(() => undefined);
    // The kernel wrote this tree and may have swapped any directory for a link
    // (a stray sandbox process could still be doing it): remove without following.
    await removeWorkspaceTree(workspaceDir(deps.config, session.id));
    await removeCellOutputs(deps.config.dataDir, session.id);
    const shas = new Set([...files.flatMap((f) => [f.sha256, f.thumbSha256].filter((s): s is string => !!s)), ...batchBlobs]);
    for (const sha of shas) if (!(await blobInUse(deps.db, sha))) await deps.blobs.remove(sha);
  });
}
