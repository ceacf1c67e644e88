/**
 * Health's `jupyter` for a server given by URL: up when it answers, up when it is too busy to
 * answer in time but takes connections (a loaded machine), down when nothing listens.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ExternalJupyter } from "./jupyter-server";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createHttpServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("ExternalJupyter.status", () => {
  it("up when it answers, even while /api/status fails as it does with a kernel starting", async () => {
    const url = await listen((req, res) => {
      // jupyter-server's status handler raises while a kernel manager has no last_activity yet.
      res.statusCode = req.url?.startsWith("/api/status") ? 500 : 200;
      res.end("{}");
    });
    expect(await new ExternalJupyter({ baseUrl: url, token: "t" }).status()).toBe("up");
  });

  it("up when the server takes the connection but is too busy to answer in time", async () => {
    const url = await listen(() => {
      // Never answers: like a jupyter-server whose loop is starved on a loaded machine.
    });
    expect(await new ExternalJupyter({ baseUrl: url, token: "t" }).status()).toBe("up");
  });

  it("down when nothing listens, or it answers with an error", async () => {
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(await new ExternalJupyter({ baseUrl: `http://127.0.0.1:${port}`, token: "t" }).status()).toBe("down");
    const failing = await listen((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    expect(await new ExternalJupyter({ baseUrl: failing, token: "t" }).status()).toBe("down");
  });
});
