/** Random Socket.io handshakes, events and raw packets, and the rule an acknowledgement must keep. */
import type { FuzzContext } from "./http-cases";
import type { Rng } from "./rng";
import { hostileId, randomString, randomValue } from "./values";

/** Names socket.io-client refuses to emit itself; they go out as raw packets instead. */
export const RESERVED_EVENTS = ["connect", "connect_error", "disconnect", "disconnecting", "newListener", "removeListener"];

export type SocketCase =
  | { kind: "handshake"; label: string; auth: unknown; headers?: Record<string, string> }
  | { kind: "emit"; label: string; event: string; args: unknown[]; ack: boolean; oversized: boolean }
  | { kind: "raw"; label: string; packet: string };

function eventName(r: Rng): string {
  return r.weighted<() => string>([
    [4, () => "sync"],
    [3, () => randomString(r, 30) || "e"],
    [1, () => r.pick(["message", "state", "join", "leave", "error", "ping", "__proto__", "constructor", "toString", "hasOwnProperty", "emit", "on", "sync ", "SYNC", "sync\u0000"])],
    [1, () => "e".repeat(r.pick([100, 5000]))],
  ])();
}

function syncArgs(r: Rng): unknown[] {
  return r.weighted<() => unknown[]>([
    [3, () => [{ afterSeq: r.pick([0, 1, 5, 1000, 2 ** 31]) }]],
    [4, () => [{ afterSeq: randomValue(r) }]],
    [2, () => [randomValue(r)]],
    [1, () => []],
    [1, () => [{ afterSeq: 0 }, randomValue(r)]],
    [1, () => [JSON.parse(`{"afterSeq":0,"sessionId":"${r.uuid()}","__proto__":{"afterSeq":-1}}`)]],
  ])();
}

export function socketCase(r: Rng, n: number, ctx: FuzzContext): SocketCase {
  const kind = r.weighted([[2, "handshake"], [14, "emit"], [2, "raw"]] as const);
  const owner = r.pick(ctx.sessions);
  if (kind === "handshake") {
    const auth = r.weighted<() => unknown>([
      [2, () => ({})],
      [2, () => ({ sessionId: owner.id })],
      [3, () => ({ sessionId: owner.id, token: r.pick(ctx.sessions.filter((s) => s !== owner))?.token ?? "x" })],
      [2, () => ({ sessionId: r.uuid(), token: owner.token })],
      [2, () => ({ sessionId: hostileId(r), token: owner.token })],
      [3, () => randomValue(r)],
      [2, () => ({ sessionId: randomValue(r), token: randomValue(r) })],
      [1, () => ({ sessionId: owner.id, token: "t".repeat(r.pick([200, 201, 5000])) })],
    ])();
    // A cookie opens a socket only from Argus's own page (its Origin), as in a browser.
    const origin: Record<string, string> = r.pick<Record<string, string>>([{}, { origin: `http://${ctx.host}` }, { origin: "http://evil.example" }]);
    const headers = r.chance(0.2) ? { cookie: r.pick([`argus_browser=${randomString(r, 20).replace(/[^\x21-\x7e]/g, "") || "x"}`, "argus_browser=%E0%A4%A", r.pick(ctx.sessions).cookie]), ...origin } : undefined;
    return { kind, label: `#${n} handshake ${JSON.stringify(auth)?.slice(0, 100)}`, auth, headers };
  }
  if (kind === "raw") {
    const packet = r.weighted<() => string>([
      [3, () => `2${r.chance(0.5) ? r.int(0, 99) : ""}${JSON.stringify([r.pick(RESERVED_EVENTS), randomValue(r)])}`],
      [2, () => `2${r.int(0, 99)}${JSON.stringify([randomValue(r), randomValue(r)])}`],
      [2, () => randomString(r, 60)],
      [1, () => r.pick(["2", "2[]", "2{}", "2[", "3", "31[]", "5", "6", "0", "1", "0/admin,", "2/nope,[\"x\"]", "21[\"sync\"]", `2${"9".repeat(30)}["sync",{"afterSeq":0}]`, "51-[\"sync\",{\"_placeholder\":true,\"num\":0}]"])],
    ])();
    return { kind, label: `#${n} raw ${JSON.stringify(packet).slice(0, 100)}`, packet };
  }
  const event = eventName(r);
  let args = event === "sync" ? syncArgs(r) : Array.from({ length: r.int(0, 3) }, () => randomValue(r));
  if (r.chance(0.05)) args = [...args, Buffer.from(r.bytes(r.int(0, 512)))];
  // Over the server's 1 MB maxHttpBufferSize, socket.io closes the connection instead of answering.
  if (r.chance(0.02)) args = [...args, "x".repeat(1_100_000)];
  const oversized = packetBytes([event, ...args]) > 1e6 - 1000;
  const ack = !oversized && r.chance(0.75);
  return { kind, label: `#${n} emit ${JSON.stringify(event).slice(0, 40)} ${JSON.stringify(args).slice(0, 80)}${ack ? " +ack" : ""}`, event, args, ack, oversized };
}

/** About what a value weighs as a socket.io packet (binary attachments count by length). */
export function packetBytes(value: unknown): number {
  let binary = 0;
  const json = JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === "object" && (v as { type?: unknown }).type === "Buffer" && Array.isArray((v as { data?: unknown }).data)) {
      binary += (v as { data: unknown[] }).data.length;
      return null;
    }
    return v;
  });
  return Buffer.byteLength(json ?? "") + binary;
}

/** An ack must be `{ok: false, error: {code, message}}`, or `{ok: true, …}` for a valid sync. */
export function judgeAck(c: Extract<SocketCase, { kind: "emit" }>, ack: unknown): string | null {
  const a = ack as { ok?: unknown; error?: { code?: unknown; message?: unknown }; messages?: unknown };
  if (a?.ok === true) {
    if (c.event === "sync" && Array.isArray(a.messages)) return null;
    return `ok: true for ${c.label}`;
  }
  if (a?.ok === false && typeof a.error?.code === "string" && /^[a-z_]+:[a-z]+$/.test(a.error.code) && typeof a.error.message === "string" && a.error.message) return null;
  return `bad ack ${JSON.stringify(ack)?.slice(0, 160)} for ${c.label}`;
}
