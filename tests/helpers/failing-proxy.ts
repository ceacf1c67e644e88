import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";

export interface FailingProxy {
  url: string;
  /** Requests that matched `fails`, answered by the proxy or passed on. */
  matched: () => number;
  close: () => Promise<void>;
}

/**
 * A loopback HTTP proxy in front of a real server that answers the first `times` requests
 * matching `fails` itself, with `status` and a JSON body, the way jupyter-server answers a
 * request it failed ({"message": "Unhandled error", ...}). Everything else, websocket
 * upgrades included, goes to the server untouched.
 */
export async function startFailingProxy(target: string, fails: (req: http.IncomingMessage) => boolean, times: number, status = 500): Promise<FailingProxy> {
  const to = new URL(target);
  let matched = 0;
  let failuresLeft = times;
  const server = http.createServer((req, res) => {
    if (fails(req)) {
      matched++;
      if (failuresLeft > 0) {
        failuresLeft--;
        req.resume();
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Unhandled error", reason: null, traceback: "Traceback (most recent call last):\n  (injected by the test's proxy)" }));
        return;
      }
    }
    const upstream = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("upgrade", (req, socket, head) => {
    const upstream = net.connect(Number(to.port), to.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${to.pathname === "/" ? "" : to.pathname}`,
    matched: () => matched,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
