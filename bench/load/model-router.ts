import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptedModel } from "@/scripted-model/server";

/** Sends each chat request to the scripted model of the session tagged in it. */
export async function startRouter(pick: (body: string) => ScriptedModel | undefined): Promise<{ url: string; server: Server; unrouted: () => number }> {
  let unrouted = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = pick(body.toString("utf8"));
      if (!target) {
        unrouted++;
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "bench router: no session tag in the request", type: "invalid_request_error" } }));
        return;
      }
      const up = httpRequest(
        { host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${target.port}`, "content-length": String(body.length) } },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, unrouted: () => unrouted };
}
