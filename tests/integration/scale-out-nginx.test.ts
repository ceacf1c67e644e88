import { request } from "node:http";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncAck } from "@/lib/foundation/protocol/socket";
import { scenarioPath } from "@/tests/helpers/agent-run";
import { haveNginx, startNginx, type RunningNginx } from "@/tests/helpers/nginx";
import { haveRedis } from "@/tests/helpers/redis-server";
import { eventually, startScaleOutOnEngines, type ScaleOutOnEngines } from "@/tests/helpers/scale-out";

/**
 * The deployed layout's load balancer: Debian's nginx running deploy/nginx.conf itself (only its
 * listen port, upstream addresses and scratch paths changed, tests/helpers/nginx-conf.ts) on a
 * port that is not 80, in front of two real instances on one Postgres, one Redis and one shared
 * Jupyter. Every request a person's browser makes goes through it, from a loopback address of its
 * own (127.0.0.x), so the instances tell the people behind the proxy apart by X-Forwarded-For.
 */
let world: ScaleOutOnEngines;
let lb: RunningNginx;
const sockets: Socket[] = [];
const ready = haveRedis() && haveNginx();

beforeAll(async () => {
  if (!ready) return;
  world = await startScaleOutOnEngines(scenarioPath("ask-mid-run.json"), {
    // One session a minute per client and instance: the proxy's clients must be told apart.
    ARGUS_SESSION_RATE_PER_MINUTE: "1",
    ARGUS_TRUSTED_PROXIES: "127.0.0.1",
  });
  lb = await startNginx([new URL(world.a.url).host, new URL(world.b.url).host]);
}, 240_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await lb?.stop();
  await world?.close();
});

type Reply = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: Record<string, any> | null };

/** One request to the load balancer from a browser at `source` (a loopback address of its own). */
function browser(source: string, method: string, route: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${lb.url}${route}`,
      { method, localAddress: source, headers: { ...headers, ...(payload ? { "content-type": "application/json" } : {}) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          let json: Record<string, any> | null = null;
          try {
            json = JSON.parse(text) as Record<string, any>;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

let nextSource = 10;
/** A person's browser opening Argus through the load balancer: its session, cookie and proof. */
async function newBrowser() {
  const source = `127.0.0.${nextSource++}`;
  const made = await browser(source, "POST", "/api/sessions");
  expect(made.status, made.text).toBe(201);
  const cookie = String((made.headers["set-cookie"] as string[])[0]).split(";")[0]!;
  return { source, id: made.json!.id as string, token: made.json!.token as string, cookie, proof: made.json!.browserProof as string };
}

describe.skipIf(!ready)("two instances behind deploy/nginx.conf", () => {
  it("opens a chat by its cookie on a port other than 80: the socket and cookie writes pass the origin check on both instances", async () => {
    const person = await newBrowser();
    // No Sec-Fetch-Site (a browser that does not send it): Origin and Host are compared.
    const page = { cookie: person.cookie, origin: lb.url };
    // Four of each, so round robin puts some on each instance.
    for (let i = 0; i < 4; i++) {
      const socket = connect(lb.url, { auth: { sessionId: person.id }, transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: page });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", () => resolve());
        socket.once("connect_error", (e: Error & { data?: { code?: string } }) => reject(new Error(`${e.data?.code ?? ""} ${e.message}`)));
      });
      const synced = (await socket.timeout(20_000).emitWithAck("sync", { afterSeq: 0 })) as SyncAck;
      expect(synced.ok, JSON.stringify(synced)).toBe(true);
      socket.disconnect();
      const renamed = await browser(person.source, "PATCH", `/api/sessions/${person.id}`, { ...page, "x-argus-browser-proof": person.proof }, { title: `renamed ${i}` });
      expect(renamed.status, renamed.text).toBe(200);
    }
  });

  it("counts each person behind the proxy apart for the session rate, and a forged X-Forwarded-For buys nothing", async () => {
    // One a minute per instance: within three tries (two instances, one more) a 429 must come,
    // though each try claims to come from a new address.
    let refused: Reply | null = null;
    for (let i = 0; i < 6 && !refused; i++) {
      const tried = await browser("127.0.0.2", "POST", "/api/sessions", { "x-forwarded-for": `198.51.100.${i + 1}` });
      if (tried.status === 429) refused = tried;
      else expect(tried.status, tried.text).toBe(201);
    }
    expect(refused?.json?.error.code).toBe("rate_limited:session");
    // Someone else behind the same proxy is not held back by that.
    const other = await browser("127.0.0.3", "POST", "/api/sessions");
    expect(other.status, other.text).toBe(201);
  });

  it("passes the database's 503 through with its own message while Postgres is down, and takes no instance out of rotation", async () => {
    const person = await newBrowser();
    const auth = { authorization: `Bearer ${person.token}` };
    await world.postgres.halt();
    try {
      // Under the old `proxy_next_upstream … http_503`, the first 503 from each instance took
      // both out for 10 s: from the second request on, every page was nginx's own 502.
      for (let i = 0; i < 6; i++) {
        const down = await browser(person.source, "GET", `/api/sessions/${person.id}`, auth);
        expect(down.status, down.text).toBe(503);
        expect(down.json?.error.code).toBe("unavailable:db");
        expect(down.headers["retry-after"]).toBe("5");
      }
    } finally {
      await world.postgres.start();
    }
    // Each instance answers again on its own; through the load balancer, so does every request.
    for (const call of [world.callA, world.callB]) {
      await eventually(async () => (await call("GET", `/api/sessions/${person.id}`, { token: person.token })).status === 200, "the instance reaches Postgres again");
    }
    for (let i = 0; i < 4; i++) {
      const back = await browser(person.source, "GET", `/api/sessions/${person.id}`, auth);
      expect(back.status, back.text).toBe(200);
    }
  });

  it("sends a request an instance holds without answering (a frozen process) to the other instance", async () => {
    const person = await newBrowser();
    const auth = { authorization: `Bearer ${person.token}` };
    const pid = world.a.proc.pid!;
    process.kill(pid, "SIGSTOP");
    try {
      // Round robin puts one of two in a row on the frozen instance; both are answered.
      for (let i = 0; i < 2; i++) {
        const got = await browser(person.source, "GET", `/api/sessions/${person.id}`, auth);
        expect(got.status, got.text).toBe(200);
      }
    } finally {
      process.kill(pid, "SIGCONT");
    }
  }, 180_000);

  it("keeps serving every request when an instance dies", async () => {
    const person = await newBrowser();
    await world.crashA();
    for (let i = 0; i < 4; i++) {
      const got = await browser(person.source, "GET", `/api/sessions/${person.id}`, { authorization: `Bearer ${person.token}` });
      expect(got.status, got.text).toBe(200);
    }
    const home = await browser(person.source, "GET", "/");
    expect(home.status).toBe(200);
  });
});
