/**
 * The only way out of Argus's browser: Chromium, in a network namespace of its
 * own (chromium-netns.ts), can reach nothing but this HTTP proxy (through a
 * Unix socket), which applies the same network guard to each connection and
 * then connects to the very addresses it judged.
 *
 * Why a proxy as well as request routing (context-guard.ts)? Routing never
 * sees a redirect's next hop (Playwright calls the handler for the first URL
 * only), nor WebSockets, and Chromium would resolve names again itself, so a
 * name could answer a public address to the check and 127.0.0.1 to the
 * connection (DNS rebinding). Here every hop of every redirect, every
 * WebSocket (tunnelled with CONNECT) and every https connection is judged,
 * and the socket goes to the judged address.
 */
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import type { NetworkGuard } from "./network-guard";
import type { Refusal } from "../../foundation/net/url-policy";

export interface ProxyRefusal {
  /** The URL for plain http, `host:port` for a tunnel (https, WebSocket). */
  target: string;
  refusal: Refusal;
}

const CONNECT_TIMEOUT_MS = 15_000;
/** Headers that describe one hop, not the request: never forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

function familyOf(address: string): 4 | 6 {
  return net.isIPv6(address) ? 6 : 4;
}

/** A `lookup` for Node's sockets that answers only the judged addresses. */
function pinnedLookup(addresses: string[]): net.LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses.map((address) => ({ address, family: familyOf(address) })));
    else callback(null, addresses[0], familyOf(addresses[0]!));
  }) as unknown as net.LookupFunction;
}

/** `host:port` of a CONNECT line, IPv6 in brackets. */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1]!, port } : null;
}

function forwardHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

export class EgressProxy {
  private server: http.Server | null = null;
  private readonly sockets = new Set<Duplex>();
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(
    private readonly guard: NetworkGuard,
    private readonly onRefusal: (refused: ProxyRefusal) => void = () => undefined,
  ) {}

  /** Starts listening on a free loopback port; returns the proxy's URL (for tests and tools on this machine). */
  async start(): Promise<string> {
    const server = await this.listen((s, done) => s.listen(0, "127.0.0.1", done));
    const { port } = server.address() as net.AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Starts listening on a Unix socket: how Chromium, in its own network namespace, reaches the proxy (chromium-netns.ts). */
  async startOnSocket(socketPath: string): Promise<void> {
    await this.listen((s, done) => s.listen(socketPath, done));
  }

  private async listen(bind: (server: http.Server, done: () => void) => void): Promise<http.Server> {
    const server = http.createServer((req, res) => void this.forward(req, res));
    server.on("connect", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    server.on("connection", (socket: net.Socket) => this.track(socket));
    server.on("clientError", (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      bind(server, () => resolve());
    });
    this.server = server;
    return server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.agent.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }

  private refuse(target: string, refusal: Refusal): void {
    this.onRefusal({ target, refusal });
  }

  /** Plain http: the request line carries the whole URL. */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
      if (url.protocol !== "http:") throw new Error("not http");
    } catch {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Argus's browser proxy takes absolute http URLs only.");
      return;
    }
    const port = url.port === "" ? 80 : Number(url.port);
    const judged = await this.guard.judgeConnection(url.hostname, port);
    if (judged.kind === "refuse") {
      this.refuse(url.href, judged);
      res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end(`Argus refused this request: ${judged.message}`);
      return;
    }
    const upstream = http.request({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardHeaders(req.rawHeaders),
      lookup: pinnedLookup(judged.addresses),
      setHost: false,
      agent: this.agent,
    });
    // A bound on connecting only: a page may stream for as long as it likes.
    upstream.on("socket", (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => upstream.destroy(new Error("upstream timed out")), CONNECT_TIMEOUT_MS);
      socket.once("connect", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardHeaders(answer.rawHeaders));
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`Could not reach ${url.host}.`);
      else res.destroy();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }

  /** https and WebSockets: a raw tunnel to the judged address. */
  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "");
    if (!target) {
      client.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const judged = await this.guard.judgeConnection(target.host, target.port);
    if (judged.kind === "refuse") {
      this.refuse(req.url ?? "", judged);
      const body = `Argus refused this connection: ${judged.message}`;
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    const upstream = net.connect({ host: target.host.replace(/^\[|\]$/g, ""), port: target.port, lookup: pinnedLookup(judged.addresses) });
    this.track(upstream);
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy());
    upstream.once("connect", () => {
      upstream.setTimeout(0);
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (client.writable && upstream.connecting) client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
      else client.destroy();
    });
    upstream.on("close", () => client.destroy());
    client.on("close", () => upstream.destroy());
  }
}
