import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressProxy, type ProxyRefusal } from "./egress-proxy";
import { HostResolver } from "./host-resolver";
import { NetworkGuard } from "./network-guard";
import { parseAllowList, parseBlockList } from "../../foundation/net/url-policy";

/** A real origin server on loopback that counts what reaches it. */
async function origin(): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url} host=${req.headers.host}`);
    res.setHeader("content-type", "text/plain");
    res.end(`hello from ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as net.AddressInfo).port, hits };
}

/** Sends raw bytes to the proxy and returns everything it answers until it closes or `until` matches. */
function raw(proxyPort: number, text: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxyPort, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      if (until?.test(answer)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("EgressProxy", () => {
  let allowed: Awaited<ReturnType<typeof origin>>;
  let forbidden: Awaited<ReturnType<typeof origin>>;
  let proxy: EgressProxy;
  let proxyPort: number;
  const refusals: ProxyRefusal[] = [];

  beforeAll(async () => {
    allowed = await origin();
    forbidden = await origin();
    const guard = new NetworkGuard(
      { block: parseBlockList("blocked.example"), allow: parseAllowList(`127.0.0.1:${allowed.port}`) },
      new HostResolver({ timeoutMs: 3000 }),
    );
    proxy = new EgressProxy(guard, (r) => refusals.push(r));
    proxyPort = Number(new URL(await proxy.start()).port);
  });

  afterAll(async () => {
    await proxy.close();
    allowed.server.close();
    forbidden.server.close();
  });

  it("forwards a plain http request to an allowed host, Host header intact", async () => {
    const answer = await raw(proxyPort, `GET http://127.0.0.1:${allowed.port}/page?q=1 HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nProxy-Connection: keep-alive\r\n\r\n`, /hello from/);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain("hello from /page?q=1");
    expect(allowed.hits).toContain(`GET /page?q=1 host=127.0.0.1:${allowed.port}`);
  });

  it("refuses loopback that is not allowed, in any spelling, and never connects", async () => {
    for (const host of [`127.0.0.1:${forbidden.port}`, `0x7f.1:${forbidden.port}`, `2130706433:${forbidden.port}`, `localhost:${forbidden.port}`]) {
      const answer = await raw(proxyPort, `GET http://${host}/secret HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer, host).toMatch(/^HTTP\/1\.1 403/);
      expect(answer, host).toMatch(/Argus refused this request: (127\.0\.0\.1 is a loopback address|localhost resolves to 127\.0\.0\.1)/);
    }
    expect(forbidden.hits).toEqual([]);
    expect(refusals.map((r) => r.refusal.reason)).toContain("address");
  });

  it("tunnels CONNECT to an allowed host:port", async () => {
    const answer = await raw(
      proxyPort,
      `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n\r\nGET /through-tunnel HTTP/1.1\r\nHost: tunnel\r\nConnection: close\r\n\r\n`,
      /hello from \/through-tunnel/,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
  });

  it("refuses CONNECT to a name that resolves to loopback, and to a blocked domain", async () => {
    const loop = await raw(proxyPort, `CONNECT localhost:${forbidden.port} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(loop).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(loop).toContain(`localhost resolves to 127.0.0.1, a loopback address (this machine), which the browser may not reach; list localhost:${forbidden.port} in ARGUS_BROWSER_ALLOW`);
    const blocked = await raw(proxyPort, "CONNECT cdn.blocked.example:443 HTTP/1.1\r\nHost: cdn.blocked.example\r\n\r\n");
    expect(blocked).toContain("cdn.blocked.example is blocked by ARGUS_BROWSER_BLOCK (blocked.example and its subdomains).");
    expect(forbidden.hits).toEqual([]);
    expect(refusals.at(-1)).toMatchObject({ target: "cdn.blocked.example:443", refusal: { reason: "blocked" } });
  });

  it("answers 400 to requests that are not proxy requests", async () => {
    expect(await raw(proxyPort, "GET /admin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(proxyPort, "CONNECT nonsense HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe("HostResolver", () => {
  it("resolves every address of a name through the system resolver, once while cached", async () => {
    const resolver = new HostResolver({ timeoutMs: 3000 });
    const first = resolver.resolve("localhost");
    expect(resolver.resolve("localhost")).toBe(first);
    expect(await first).toContain("127.0.0.1");
    expect(resolver.resolve("localhost", Date.now() + 60_000)).not.toBe(first);
  });

  it("answers [] for a name that does not exist", async () => {
    expect(await new HostResolver({ timeoutMs: 3000 }).resolve("nothing-here.invalid")).toEqual([]);
  });
});
