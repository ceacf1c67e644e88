import { io, type Socket } from "socket.io-client";
import type { FuzzContext } from "./http-cases";
import { Tally, violationsOf } from "./report";
import { Rng } from "./rng";
import { judgeAck, packetBytes, RESERVED_EVENTS, socketCase } from "./socket-cases";

export interface SocketFuzzOptions {
  base: string;
  ctx: FuzzContext;
  seed: number;
  count: number;
  /** Sockets acting at once (each with its own valid connection). */
  workers: number;
  /**
   * How long an ack may take before it counts as never coming. A missing ack never arrives, so a
   * generous bound hides nothing, while a tight one fails on a loaded machine (CI shares 2 cores).
   */
  ackTimeoutMs: number;
  budgetMs: number;
}

const HANDSHAKE_CODES = ["bad_request:socket", "unauthorized:session", "forbidden:session", "forbidden:socket"];

export async function runSocketFuzz(o: SocketFuzzOptions) {
  const r = new Rng(o.seed);
  const outcomes = new Tally();
  const violations = violationsOf();
  const opened: Socket[] = [];
  const open = (auth: unknown, headers?: Record<string, string>) => {
    const s = io(o.base, { auth: auth as Record<string, unknown>, extraHeaders: headers, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 5000 });
    opened.push(s);
    return s;
  };
  const settle = (s: Socket) =>
    new Promise<{ connected: boolean; code?: string; message?: string }>((resolve) => {
      const t = setTimeout(() => resolve({ connected: false, code: "timeout" }), 5000);
      s.once("connect", () => (clearTimeout(t), resolve({ connected: true })));
      s.once("connect_error", (e: Error & { data?: { code?: string } }) => (clearTimeout(t), resolve({ connected: false, code: e.data?.code, message: e.message })));
      // The transport closed without an answer: the server dropped a malformed CONNECT packet.
      // (socket.io-client closes the transport just before it emits connect_error, so give that a moment.)
      s.io.on("open", () => s.io.engine.once("close", () => setTimeout(() => (clearTimeout(t), resolve({ connected: false, code: "closed" })), 100)));
    });
  const valid = async () => {
    const owner = o.ctx.sessions[0]!;
    const s = open({ sessionId: owner.id, token: owner.token });
    const st = await settle(s);
    if (!st.connected) throw new Error(`a valid socket was refused: ${st.code} ${st.message}`);
    return s;
  };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    let s = await valid();
    for (;;) {
      if (next >= o.count || performance.now() - started > o.budgetMs) break;
      const n = next++;
      let c = socketCase(r, n, o.ctx);
      if (c.kind === "emit" && RESERVED_EVENTS.includes(c.event)) c = { kind: "raw", label: c.label, packet: `2${JSON.stringify([c.event, ...c.args])}` };
      if (c.kind === "handshake") {
        const h = open(c.auth, c.headers);
        const st = await settle(h);
        h.disconnect();
        const a = c.auth as { sessionId?: unknown; token?: unknown } | null;
        const session = o.ctx.sessions.find((x) => x.id === a?.sessionId);
        const cookieOk = !!session && c.headers?.cookie === session.cookie && c.headers?.origin === `http://${o.ctx.host}`;
        // The token opens its session; so does the creating browser's cookie, unless the token is malformed.
        const tokenWellFormed = a?.token === undefined || (typeof a.token === "string" && a.token.length >= 1 && a.token.length <= 200);
        const legit = !!session && (a?.token === session.token || (cookieOk && tokenWellFormed));
        if (st.connected) {
          outcomes.add("handshake accepted");
          if (!legit) violations.add("handshake accepted without valid credentials", c.label);
        } else {
          outcomes.add(`handshake refused ${st.code}`);
          // socket.io's parser only accepts an object (or nothing) as CONNECT data and drops the
          // connection otherwise; socket.io-client never sends anything else for a valid `auth`.
          const plainObject = typeof c.auth === "object" && c.auth !== null && !Array.isArray(c.auth);
          if (legit) violations.add("valid handshake refused", `${c.label} → ${st.code}`);
          else if (st.code === "closed" && !plainObject) continue;
          // A handshake over the 1 MB packet limit, or whose upgrade request carries over 16 KB of
          // headers (Node answers 431), is cut off at the transport, without a code.
          else if (st.code === undefined && (packetBytes(c.auth) > 1e6 - 1000 || Buffer.byteLength(c.headers?.cookie ?? "") > 16 * 1024 - 1024)) continue;
          else if (!HANDSHAKE_CODES.includes(st.code ?? "")) violations.add(`handshake refused with code ${st.code}`, `${c.label} → ${st.message}`);
        }
        continue;
      }
      if (c.kind === "raw") {
        // A malformed packet may make the server close the connection: find out with a valid request.
        const closed = new Promise<"closed">((res) => s.once("disconnect", () => res("closed")));
        s.io.engine.write(c.packet);
        // A packet starting with "1" is a DISCONNECT for the namespace: nothing answers after it, so
        // it is not waited on.
        const disconnects = c.packet.startsWith("1");
        const after = disconnects
          ? ("no ack" as const)
          : await Promise.race([closed, s.timeout(o.ackTimeoutMs).emitWithAck("sync", { afterSeq: 0 }).then(() => "open" as const, () => "no ack" as const)]);
        outcomes.add(disconnects ? "raw DISCONNECT packet" : after === "open" ? "raw packet, still connected" : "raw packet, closed by the server");
        if (after === "no ack" && s.connected && !disconnects) violations.add("a connection stopped answering after a raw packet", c.label);
        if (after !== "open") {
          s.disconnect();
          s = await valid();
        }
        continue;
      }
      const closed = new Promise<"closed">((res) => s.once("disconnect", () => res("closed")));
      const ping = () => s.timeout(o.ackTimeoutMs).emitWithAck("sync", { afterSeq: 0 }).then(() => "open" as const, () => "no ack" as const);
      if (c.ack) {
        try {
          const ack = await s.timeout(o.ackTimeoutMs).emitWithAck(c.event, ...c.args);
          outcomes.add((ack as { ok?: boolean })?.ok ? "ack ok:true" : "ack ok:false");
          const bad = judgeAck(c, ack);
          if (bad) violations.add("bad acknowledgement", bad);
        } catch {
          outcomes.add("no ack");
          violations.add(`no acknowledgement for '${c.event.slice(0, 30)}' with ${c.args.length} argument(s)`, `${c.label} (seed ${o.seed})`);
        }
      } else {
        s.emit(c.event, ...c.args);
        // Nothing comes back; the connection must still answer a valid request (unless the event was oversized).
        const after = await Promise.race([closed, ping()]);
        outcomes.add(c.oversized ? `oversized, ${after === "open" ? "still connected" : "closed by the server"}` : "emit without ack");
        if (!c.oversized && after !== "open") violations.add(`the connection ${after === "closed" ? "was closed" : "stopped answering"} after an event without ack`, c.label);
      }
      if (!s.connected) {
        if (!c.oversized) violations.add("the server dropped a socket after an event", c.label);
        s.disconnect();
        s = await valid();
      }
    }
    // The connection still serves a valid request after everything it was sent.
    try {
      const ack = (await s.timeout(o.ackTimeoutMs * 2).emitWithAck("sync", { afterSeq: 0 })) as { ok?: boolean };
      if (ack?.ok !== true) violations.add("a valid sync failed after fuzzing", JSON.stringify(ack).slice(0, 200));
    } catch {
      violations.add("a valid sync got no ack after fuzzing", "end of worker");
    }
  };
  await Promise.all(Array.from({ length: o.workers }, worker));
  for (const s of opened) s.disconnect();
  return { sent: next, outcomes, violations, durationMs: performance.now() - started };
}
