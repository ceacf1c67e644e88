/**
 * The browser lab: a tiny shop served on loopback by a real HTTP server from
 * tests/fixtures/browser-lab/, for the Computer's tests and benchmark. Product
 * photos are made with sharp when the lab starts. Every request is recorded
 * in `hits`, so a test can prove that something refused never arrived.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/browser-lab");

const PHOTOS: Record<string, [number, number, number]> = {
  "red-mug": [200, 30, 40],
  "green-lamp": [40, 160, 60],
  "blue-chair": [40, 70, 200],
};

export interface Lab {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** `127.0.0.1:<port>`, as ARGUS_BROWSER_ALLOW takes it. */
  hostPort: string;
  /** "GET /path" for every request, in order. */
  hits: string[];
  close: () => Promise<void>;
}

export interface LabOptions {
  /** Put in place of {{BLOCKED_ORIGIN}} in the pages: where the sponsor link and the tracker pixel point. */
  blockedOrigin?: string;
  /** Size of /download/big.bin, sent in 64 KB pieces with a pause between them. */
  bigDownloadBytes?: number;
  /** More photos, served as /photos/<name>.png (the coins photo for the browsing agent). */
  photos?: Record<string, Buffer>;
}

async function photos(): Promise<Map<string, Buffer>> {
  const made = new Map<string, Buffer>();
  for (const [name, [r, g, b]] of Object.entries(PHOTOS)) {
    made.set(name, await sharp({ create: { width: 160, height: 120, channels: 3, background: { r, g, b } } }).png().toBuffer());
  }
  return made;
}

function attachment(res: http.ServerResponse, filename: string, body: string): void {
  res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": `attachment; filename="${filename}"`, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const hits: string[] = [];
  const images = await photos();
  for (const [name, bytes] of Object.entries(options.photos ?? {})) images.set(name, bytes);
  const page = (file: string) => readFileSync(path.join(FIXTURES, file), "utf8").replaceAll("{{BLOCKED_ORIGIN}}", options.blockedOrigin ?? "http://blocked.invalid");

  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? "/", "http://lab");
    const name = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    if (/^[a-z-]+\.(html|css)$/.test(name)) {
      try {
        res.writeHead(200, { "content-type": name.endsWith(".css") ? "text/css" : "text/html; charset=utf-8" }).end(page(name));
      } catch {
        res.writeHead(404).end("no such page");
      }
      return;
    }
    const photo = /^\/photos\/([a-z-]+)\.png$/.exec(url.pathname);
    if (photo && images.has(photo[1]!)) {
      res.writeHead(200, { "content-type": "image/png" }).end(images.get(photo[1]!));
      return;
    }
    switch (url.pathname) {
      case "/marker-seen":
        res.writeHead(204).end();
        return;
      case "/pixel.png":
        res.writeHead(200, { "content-type": "image/png" }).end(images.get("red-mug"));
        return;
      case "/secret":
        res.writeHead(200, { "content-type": "text/plain" }).end("the secret");
        return;
      case "/signed-in":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Signed in</title><h1 id="who">${(url.searchParams.get("name") ?? "").replace(/[<&]/g, "")}</h1>`);
        return;
      case "/redirect":
        res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
        return;
      case "/download/price-list.csv":
        attachment(res, "price-list.csv", "product,price\nred mug,9\ngreen lamp,24\nblue chair,70\n");
        return;
      case "/download/sneaky":
        attachment(res, "../../.bashrc", "echo owned\n");
        return;
      case "/download/big.bin": {
        const total = options.bigDownloadBytes ?? 8 * 1024 * 1024;
        res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": 'attachment; filename="big.bin"' });
        const piece = Buffer.alloc(64 * 1024, 7);
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed || sent >= total) {
            clearInterval(timer);
            res.end();
            return;
          }
          res.write(piece.subarray(0, Math.min(piece.length, total - sent)));
          sent += piece.length;
        }, 10);
        res.on("close", () => {
          clearInterval(timer);
          hits.push(`big.bin closed after ${Math.min(sent, total)} of ${total} bytes`);
        });
        return;
      }
      default:
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hostPort: `127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
