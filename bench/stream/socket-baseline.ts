/**
 * The floor under Argus's draft latency: a bare Socket.io server on loopback emits a timestamp
 * to a bare page in the same Chromium, which writes it into the DOM; a MutationObserver in the
 * page notes when it got there. No model client, no Argus, no React: just the transport and
 * the browser, measured with the same clocks as the real path.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { Server } from "socket.io";

const PAGE = `<!doctype html><meta charset="utf-8"><title>socket baseline</title><div id="out"></div>`;

/** Epoch ms with sub-ms resolution, the same formula the page and the scripted model use. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/** Milliseconds from `emit` on the server to the text being in the page's DOM, `count` times. */
export async function socketToDomLatencies(browser: Browser, count: number, gapMs: number): Promise<number[]> {
  const http = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  const io = new Server(http, { serveClient: false });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.addScriptTag({ path: path.join(process.cwd(), "node_modules/socket.io-client/dist/socket.io.min.js") });
    const connected = new Promise<void>((resolve) => io.once("connection", () => resolve()));
    await page.evaluate(() => {
      const w = window as unknown as { io: (url: string, o: object) => { on: (e: string, f: (x: { id: number }) => void) => void }; __seen: Record<number, number> };
      w.__seen = {};
      const out = document.getElementById("out")!;
      new MutationObserver(() => {
        const id = Number(out.dataset.id);
        w.__seen[id] ??= performance.timeOrigin + performance.now();
      }).observe(out, { childList: true, characterData: true, subtree: true, attributes: true });
      const socket = w.io(location.origin, { transports: ["websocket"] });
      socket.on("tick", (m: { id: number }) => {
        out.dataset.id = String(m.id);
        out.textContent = `tick ${m.id}`;
      });
    });
    await connected;
    const sent: number[] = [];
    for (let id = 0; id < count; id++) {
      await new Promise((r) => setTimeout(r, gapMs));
      sent[id] = epochNow();
      io.emit("tick", { id });
    }
    await page.waitForFunction((n) => Object.keys((window as unknown as { __seen: object }).__seen).length >= n, count);
    const seen = await page.evaluate(() => (window as unknown as { __seen: Record<number, number> }).__seen);
    return sent.map((t, id) => seen[id]! - t);
  } finally {
    await context.close();
    io.close();
    http.close();
  }
}
