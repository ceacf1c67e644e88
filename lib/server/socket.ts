import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { Server, type Socket } from "socket.io";
import { latestRun } from "@/lib/engines/db/runs";
import { ArgusError, isArgusError } from "@/lib/foundation/errors";
import type { RunState } from "@/lib/foundation/protocol/state";
import {
  sessionRoom,
  SocketAuthSchema,
  SyncRequestSchema,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketError,
  type SyncAck,
} from "@/lib/foundation/protocol/socket";
import { authorizeSession } from "@/lib/features/sessions/service";
import type { ArgusArea } from "./areas";
import { isAllowedHost, type AllowedHosts } from "./allowed-hosts";
import { browserCookieName, isSameOrigin, readCookies } from "./auth";
import { zodProblem } from "./http";

interface SocketData {
  sessionId: string;
}

type ArgusSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type ArgusIo = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

function toSocketError(error: unknown): SocketError {
  if (isArgusError(error)) return { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
  console.error("[argus] socket handler failed:", error);
  return { code: "internal:socket", message: "Something went wrong on the server; the error was logged." };
}

/**
 * Socket.io on the same HTTP server as Next. A socket proves itself with the
 * session token (or the browser cookie that created the session), joins that
 * session's room, and receives every event the log persists for it.
 */
export function attachSocketServer(httpServer: HttpServer, core: ArgusArea<"socket">, options: { allowedHosts: AllowedHosts }): ArgusIo {
  const io: ArgusIo = new Server(httpServer, {
    serveClient: false,
    maxHttpBufferSize: 1e6,
    // Same-origin only by default: the page is served by this very server.
    cors: undefined,
    // DNS rebinding: refuse handshakes addressed to a name Argus isn't served under.
    allowRequest: (req, callback) => callback(null, isAllowedHost(req.headers.host, options.allowedHosts)),
    // REDIS_URL: every room emit also travels through one Redis stream, so a client on any
    // instance gets a run's events in order. Stream entries survive a Redis blip (the adapter
    // resumes from its offset); what a restarted, empty Redis lost, `sync` fills from the database.
    ...(core.redis ? { adapter: createAdapter(core.redis, { streamName: "argus:socket.io", onlyPlaintext: true }) } : {}),
  });

  io.use(async (socket, next) => {
    const parsed = SocketAuthSchema.safeParse(socket.handshake.auth);
    if (!parsed.success) {
      const err = new Error(zodProblem(parsed.error).message) as Error & { data?: unknown };
      err.data = { code: "bad_request:socket" };
      return next(err);
    }
    try {
      const headers = socket.handshake.headers;
      const token = parsed.data.token ?? null;
      const browsers = readCookies(headers.cookie, browserCookieName(core.config.secureCookies));
      // A browser attaches its cookie to a foreign page's WebSocket too, and
      // WebSockets are not bound by CORS: a socket opened by the cookie alone
      // must come from Argus's own pages, as cookie writes over HTTP must.
      const header = (name: string) => {
        const v = headers[name];
        return typeof v === "string" ? v : null;
      };
      const sameOrigin = isSameOrigin({ origin: header("origin"), host: header("host"), secFetchSite: header("sec-fetch-site") });
      await authorizeSession(core, parsed.data.sessionId, { token, browsers, sameOrigin, write: false });
      if (!token && !sameOrigin) {
        throw new ArgusError("forbidden:socket", "This chat can only be opened from Argus's own page.");
      }
      socket.data.sessionId = parsed.data.sessionId;
      next();
    } catch (error) {
      const e = toSocketError(error);
      const err = new Error(e.message) as Error & { data?: unknown };
      err.data = { code: e.code };
      next(err);
    }
  });

  io.on("connection", (socket: ArgusSocket) => {
    void socket.join(sessionRoom(socket.data.sessionId));
    // A wait that began before this socket joined (a new chat's first run) is shown all the same.
    const waiting = core.waits.current(socket.data.sessionId);
    if (waiting) socket.emit("wait", waiting);

    socket.on("sync", (...args: unknown[]) => {
      // The ack is the last argument wherever it lands (sync with no payload,
      // or with extra arguments, must still be answered).
      const ack = args[args.length - 1] as ((res: SyncAck) => void) | undefined;
      if (typeof ack !== "function") return;
      const req = args.length >= 2 ? args[0] : undefined;
      void (async () => {
        const { afterSeq } = (() => {
          const r = SyncRequestSchema.safeParse(req);
          if (!r.success) {
            const p = zodProblem(r.error);
            throw new ArgusError("bad_request:socket", p.message, { field: p.field });
          }
          return r.data;
        })();
        const sessionId = socket.data.sessionId;
        const messages = await core.events.messagesAfter(sessionId, afterSeq);
        const run = await latestRun(core.db, sessionId);
        ack({ ok: true, messages, state: core.events.latestRunState(sessionId, run ? (run.state as RunState) : null) });
      })().catch((error: unknown) => ack({ ok: false, error: toSocketError(error) }));
    });

    // Anything else a client sends gets a clear refusal instead of silence.
    socket.onAny((event: string, ...args: unknown[]) => {
      if (event === "sync") return;
      const ack = args[args.length - 1];
      if (typeof ack === "function") {
        (ack as (res: unknown) => void)({
          ok: false,
          error: { code: "bad_request:socket", message: `Unknown event '${String(event).slice(0, 60)}'.` },
        });
      }
    });
  });

  core.events.subscribe("socket.io", ({ sessionId, message, state }) => {
    const room = io.to(sessionRoom(sessionId));
    if (message) room.emit("message", message);
    if (state) room.emit("state", state);
  });

  if (core.redis) {
    // Events relayed while Redis was away may be lost (those in flight when it went); the
    // database has them all, so this instance's clients are told to sync again once it is back.
    let redisDown = false;
    core.redis.on("error", () => (redisDown = true));
    core.redis.on("ready", () => {
      if (!redisDown) return;
      redisDown = false;
      io.local.emit("resync");
    });
  }

  // Ephemeral: sent to whoever is in the room now, never stored, never replayed by sync.
  core.drafts.subscribe((sessionId, draft) => io.to(sessionRoom(sessionId)).emit("draft", draft));
  core.waits.subscribe((sessionId, wait) => io.to(sessionRoom(sessionId)).emit("wait", wait));

  // Batch progress: state is in the database first, so a page that missed one reads it over HTTP.
  core.batchEvents.subscribe((sessionId, event) => io.to(sessionRoom(sessionId)).emit("batch", event));

  return io;
}
