import { request } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { useArgusServer } from "@/tests/helpers/argus-server";

/**
 * A refused upload must reach the client as its answer (413, 401…), not as a
 * broken pipe: a server that stops reading and closes while the client is
 * still sending makes the kernel reset the connection, and the client never
 * sees the response that explains why.
 */

const ctx = useArgusServer({ ARGUS_MAX_UPLOAD_MB: "1" });
const BODY_BYTES = 24 * 1024 * 1024;

interface Outcome {
  status?: number;
  json?: any;
  error?: string;
}

/** Streams a large multipart body in chunks, as a browser or curl would, and reports what came back. */
function upload(path: string, headers: Record<string, string>, declareLength: boolean): Promise<Outcome> {
  const url = new URL(ctx.server.url);
  const boundary = "argus-test-boundary";
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.png"\r\ncontent-type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 7);
  const chunks = Math.ceil(BODY_BYTES / chunk.length);
  const total = head.length + chunks * chunk.length + tail.length;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path,
        headers: { connection: "close", ...headers, "content-type": `multipart/form-data; boundary=${boundary}`, ...(declareLength ? { "content-length": String(total) } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          done({ status: res.statusCode, json });
        });
        res.on("error", (e) => done({ error: `${(e as NodeJS.ErrnoException).code ?? e.message} (response)` }));
      },
    );
    req.on("error", (e) => done({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end(tail);
    };
    pump();
  });
}

describe("an upload refused before its body is read", () => {
  it("gets its 413 and never a broken pipe, whether or not the length is declared", async () => {
    const made = await ctx.call("POST", "/api/sessions", {});
    const auth = { authorization: `Bearer ${made.json.token}` };
    for (let i = 0; i < 4; i++) {
      // Several at once, so the server answers some while their bodies are still arriving.
      const all = await Promise.all([true, false, true, false].map((declared) => upload(`/api/sessions/${made.json.id}/uploads`, auth, declared)));
      for (const got of all) {
        expect(got, `attempt ${i}`).toMatchObject({ status: 413 });
        expect(got.json.error.code).toBe("payload_too_large:api");
        expect(got.json.error.message).toMatch(/1 MB limit/);
      }
    }
  });

  it("gets its 413 even when the client reads nothing until it has sent its whole body", async () => {
    // Like curl or a busy browser: the answer waits unread in the client's
    // buffer while the body goes out. A server that closes with body bytes
    // still arriving sends a reset, which throws that unread answer away.
    const made = await ctx.call("POST", "/api/sessions", {});
    const url = new URL(ctx.server.url);
    for (let i = 0; i < 3; i++) {
      const outcome = await new Promise<{ text: string; error: string | null }>((resolve) => {
        const socket = connect({ host: url.hostname, port: Number(url.port) });
        const size = 8 * 1024 * 1024;
        let text = "";
        let error: string | null = null;
        socket.pause();
        socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
        socket.once("close", () => resolve({ text, error }));
        socket.once("connect", async () => {
          socket.write(
            `POST /api/sessions/${made.json.id}/uploads HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${made.json.token}\r\n` +
              `content-type: multipart/form-data; boundary=x\r\ncontent-length: ${size}\r\nconnection: close\r\n\r\n`,
          );
          const chunk = Buffer.alloc(64 * 1024, 7);
          for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
            if (!socket.write(chunk)) await new Promise((r) => socket.once("drain", r).once("close", r));
          }
          // Only now read what came back.
          await new Promise((r) => setTimeout(r, 100));
          socket.setEncoding("utf8");
          socket.on("data", (c: string) => (text += c));
          socket.resume();
        });
      });
      expect(outcome.text, `attempt ${i} (${outcome.error ?? "no error"})`).toMatch(/^HTTP\/1\.1 413/);
      expect(outcome.text).toMatch(/payload_too_large:api/);
    }
  });

  it("gets its 401 when the credentials are missing, with a body on its way", async () => {
    const made = await ctx.call("POST", "/api/sessions", {});
    for (let i = 0; i < 3; i++) {
      const got = await upload(`/api/sessions/${made.json.id}/uploads`, {}, true);
      expect(got, `attempt ${i}`).toMatchObject({ status: 401 });
    }
  });
});

describe("malformed and abusive multipart forms", () => {
  const boundary = "b0undary";
  const part = (headers: string, body = "x") => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
  const close = `--${boundary}--\r\n`;
  const cases: Array<[string, string, string]> = [
    ["10 000 tiny files", Array.from({ length: 10_000 }, (_, i) => part(`content-disposition: form-data; name="file"; filename="${i}.png"`)).join("") + close, `multipart/form-data; boundary=${boundary}`],
    ["no boundary", part('content-disposition: form-data; name="file"; filename="a.png"') + close, "multipart/form-data"],
    ["a NUL in the file name", part('content-disposition: form-data; name="file"; filename="a\u0000.png"') + close, `multipart/form-data; boundary=${boundary}`],
    ["a path as the file name", part('content-disposition: form-data; name="file"; filename="../../argus.db"') + close, `multipart/form-data; boundary=${boundary}`],
    ["no closing boundary", part('content-disposition: form-data; name="file"; filename="a.png"'), `Multipart/Form-Data; boundary=${boundary}`],
  ];

  it("each get a plain 4xx from the upload and batch routes, never a 500", async () => {
    const made = await ctx.call("POST", "/api/sessions", {});
    for (const route of ["uploads", "batches"]) {
      for (const [what, raw, type] of cases) {
        const got = await ctx.call("POST", `/api/sessions/${made.json.id}/${route}`, { token: made.json.token, raw, headers: { "content-type": type } });
        const seen = `${route}: ${what} → ${got.status} ${got.text.slice(0, 200)}`;
        // Many parts are refused by their count, before any file is looked at (their parsing held the event loop).
        if (what === "10 000 tiny files") expect(got.status, seen).toBe(413);
        else expect(got.status >= 400 && got.status < 500, seen).toBe(true);
        expect(got.json?.error?.message, `${route}: ${what}`).toEqual(expect.any(String));
      }
    }
  });
});

