import type { ArgusCore } from "./argus-core";
import { getArgus } from "./context";

/**
 * The narrow faces of the core that route handlers, pages and Socket.io are given: each area
 * lists the members its handlers use, and a handler gets those and nothing else (picked at run
 * time, so a member that is not listed is not there, not merely untyped).
 *
 * Opening a session (lib/features/sessions/service.ts) needs its whole SessionDeps, since deleting one
 * stops its run, browser and warm kernels: every area that authorises a session carries them.
 */
const SESSION = ["db", "blobs", "events", "config", "locks", "kernels", "runs", "runRouter", "computers", "functionCalls"] as const;

export const AREA_MEMBERS = {
  /** Create, list, open, rename and delete sessions; their uploads, function tokens and notebook (which carries the helpers from pythonDir). */
  sessions: [...SESSION, "sessionCreation", "disk", "pythonDir"],
  /** Serve a stored file (an upload, a picture, a thumbnail) to its session or a grant. */
  files: SESSION,
  /** Post a message (start or answer a run) and stop a run. */
  runs: SESSION,
  /** List, read, export and call a session's kept functions. */
  functions: [...SESSION, "disk", "pythonDir"],
  /** Start, read, cancel and export batch runs. */
  batches: [...SESSION, "disk", "zipUnpacks", "batches"],
  /** The neural vision tools over HTTP. */
  tools: [...SESSION, "vision"],
  /** The health report, the status page and "Check models". */
  status: ["config", "health", "modelCheck"],
  /** The models the endpoint lists, and each role's model on this server (the chat's model picker). */
  models: ["config", "endpointModels"],
  /** Socket.io: a session's live messages, drafts, waits and batch events, over Redis when scaled out. */
  socket: [...SESSION, "drafts", "waits", "batchEvents", "redis"],
} as const satisfies Record<string, readonly (keyof ArgusCore)[]>;

export type AreaName = keyof typeof AREA_MEMBERS;
export type ArgusArea<A extends AreaName> = Pick<ArgusCore, (typeof AREA_MEMBERS)[A][number]>;

/** The members of `area` picked from `core`: pure, so what each area holds is tested beside it. */
export function pickArea<A extends AreaName>(core: ArgusCore, area: A): ArgusArea<A> {
  return Object.fromEntries(AREA_MEMBERS[area].map((member) => [member, core[member]])) as ArgusArea<A>;
}

/** The running core's `area` (see context.ts for how routes reach the instance server.ts built). */
export function argusArea<A extends AreaName>(area: A): ArgusArea<A> {
  return pickArea(getArgus(), area);
}
