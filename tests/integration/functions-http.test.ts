import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { filesOfSession } from "@/lib/engines/db/files";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { coinImage } from "@/tests/helpers/coin-images";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";

/**
 * Issue #15 over HTTP with a real server, real kernels and the scripted
 * model: the count-coins run keeps count_coins v1, the edit_code run v2; the
 * versions API shows both; the run endpoint counts generated coin images and
 * fails misbehaving functions with a typed 422, each call on its own.
 */
let world: AgentWorld;
let a: { id: string; token: string };
let b: { id: string; token: string };
let coinsUploadId: string;

const COUNTS = [1, 5, 9, 14];

beforeAll(async () => {
  // A call's budget covers its cell in a fresh kernel (imports included): on a busy machine a few
  // seconds is not enough for counting coins, so the hanging function below waits out a longer one.
  world = await startAgentWorld(scenarioPath("count-coins.json"), { ARGUS_FUNCTION_TIMEOUT_SECONDS: "20", ARGUS_FUNCTION_MAX_OUTPUT_CHARS: "100000" });
  a = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  b = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
  coinsUploadId = (await uploadFile(world, a, await coinsPng(), "coins.png")).id;
  const watch = await watchSession(world.server.url, a);
  try {
    const first = await world.call("POST", `/api/sessions/${a.id}/messages`, { token: a.token, body: { role: "user", content: "How many coins are on the table?", media: [coinsUploadId] } });
    expect((await watch.until(["finished", "error", "stopped"], 90_000, first.json.runId as string)).agentState).toBe("finished");
    const edit = await world.call("POST", `/api/sessions/${a.id}/messages`, { token: a.token, body: { role: "user", content: "Can the function also return each coin's area?" } });
    expect((await watch.until(["finished", "error", "stopped"], 90_000, edit.json.runId as string)).agentState).toBe("finished");
  } finally {
    watch.socket.disconnect();
  }
}, 240_000);
afterAll(async () => {
  await world?.close();
});

function imageForm(bytes: Uint8Array, name: string): FormData {
  const form = new FormData();
  form.set("file", new Blob([bytes as BlobPart]), name);
  return form;
}

const run = (session: { id: string; token: string }, name: string, init: { raw?: BodyInit; body?: unknown; query?: string; token?: string }) =>
  world.call("POST", `/api/sessions/${session.id}/functions/${name}/run${init.query ?? ""}`, { token: init.token ?? session.token, raw: init.raw, body: init.body });

describe("functions are kept", () => {
  it("keeps the coder's result as version 1 and the edit as version 2", async () => {
    const list = await world.call("GET", `/api/sessions/${a.id}/functions`, { token: a.token });
    expect(list.status).toBe(200);
    expect(list.json.functions).toMatchObject([{ name: "count_coins", latestVersion: 2, versions: 2, success: true }]);

    const versions = await world.call("GET", `/api/sessions/${a.id}/functions/count_coins/versions`, { token: a.token });
    expect(versions.json.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    const [v1, v2] = versions.json.versions as { code: string; test: string; runId: string; testOutput: string }[];
    expect(v1!.code).toMatch(/return int\(\(sizes > 100\)\.sum\(\)\)/);
    expect(v2!.code).toMatch(/return int\(keep\.sum\(\)\), \[int\(s\) for s in sizes\[keep\]\]/);
    expect(v1!.testOutput).toMatch(/24/);
    expect(v2!.testOutput).toMatch(/24 24/);
    expect(v1!.runId).not.toBe(v2!.runId);

    const one = await world.call("GET", `/api/sessions/${a.id}/functions/count_coins/versions/1`, { token: a.token });
    expect(one.json).toMatchObject({ name: "count_coins", version: 1, code: v1!.code, test: "print(count_coins('coins.png'))" });
    expect((await world.call("GET", `/api/sessions/${a.id}/functions/count_coins/versions/3`, { token: a.token })).status).toBe(404);
    expect((await world.call("GET", `/api/sessions/${a.id}/functions/nope/versions`, { token: a.token })).status).toBe(404);
    expect((await world.call("GET", `/api/sessions/${a.id}/functions/bad..name/versions`, { token: a.token })).status).toBe(400);
  });

  it("keeps another session's functions apart", async () => {
    expect((await world.call("GET", `/api/sessions/${b.id}/functions`, { token: b.token })).json.functions).toEqual([]);
    expect((await world.call("GET", `/api/sessions/${a.id}/functions`, { token: b.token })).status).toBe(403);
  });
});

describe("POST /api/sessions/:id/functions/:name/run", () => {
  it("counts generated coin images with version 1, and answers the tuple of version 2 as a list", async () => {
    for (const count of COUNTS) {
      const res = await run(a, "count_coins", { raw: imageForm(await coinImage(count), `coins-${count}.png`), query: "?version=1" });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ result: count, stdout: "", images: [], version: 1 });
      expect(res.json.seconds).toBeGreaterThan(0);
      // The time around the function (a kernel to wait for, the file to move) is reported, not hidden.
      expect(res.json.waited_seconds).toBeGreaterThanOrEqual(0);
    }
    const latest = await run(a, "count_coins", { raw: imageForm(await coinImage(5), "five.png") });
    expect(latest.status, latest.text).toBe(200);
    expect(latest.json.version).toBe(2);
    expect(latest.json.result[0]).toBe(5);
    expect(latest.json.result[1]).toHaveLength(5);
  });

  it("runs on a session upload by id", async () => {
    const res = await run(a, "count_coins", { body: { uploadId: coinsUploadId }, query: "?version=1" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toBe(24);
  });

  it("refuses bad input with the usual typed errors", async () => {
    const form = new FormData();
    form.set("other", "x");
    const missing = await run(a, "count_coins", { raw: form });
    expect(missing.status).toBe(400);
    expect(missing.json.error.field).toBe("file");

    const notImage = await run(a, "count_coins", { raw: imageForm(new TextEncoder().encode("just some text"), "notes.png") });
    expect([400, 415]).toContain(notImage.status);
    expect(notImage.json.error.message).toBeTruthy();

    expect((await run(a, "no_such_function", { raw: imageForm(await coinImage(2), "c.png") })).status).toBe(404);
    expect((await run(a, "count_coins", { body: { uploadId: coinsUploadId }, query: "?version=9" })).status).toBe(404);
    expect((await run(a, "count_coins", { body: { uploadId: coinsUploadId }, query: "?version=zero" })).status).toBe(400);
    expect((await run(a, "count_coins", { body: { uploadId: "not-an-upload" } })).status).toBe(404);
    expect((await run(a, "count_coins", { raw: "plain text" })).status).toBe(415);
  });

  it("never lets one session's token run another's function or read its uploads", async () => {
    // B's token on A's function: refused like any route of A.
    const foreign = await run(a, "count_coins", { body: { uploadId: coinsUploadId }, token: b.token });
    expect(foreign.status).toBe(403);
    // A's function on B's upload: B's upload does not exist for A.
    const bUpload = await uploadFile(world, b, await coinImage(3), "b-coins.png");
    const crossUpload = await run(a, "count_coins", { body: { uploadId: bUpload.id }, query: "?version=1" });
    expect(crossUpload.status).toBe(404);
    expect(crossUpload.json.error.code).toBe("not_found:file");
    // B has no count_coins of its own.
    expect((await run(b, "count_coins", { body: { uploadId: bUpload.id } })).status).toBe(404);
  });

  // One call per test: each misbehaving call ends with its kernel replaced, so each of these starts
  // a fresh kernel (seconds of CPU on a busy machine) and gets its own time budget; as one test the
  // four cold starts plus the 20 s hang ran out of a single test's budget under load.
  describe("fails a hanging function, a huge printer and a crash each on its own call; a non-JSON return is its repr", () => {
    beforeAll(async () => {
      const db = await openDatabase(world.server.database);
      const keep = (name: string, code: string) =>
        addFunctionVersion(db, { sessionId: a.id, name, code, test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
      try {
        await keep("hang", "import time\ndef hang(p):\n    while True:\n        time.sleep(0.05)\n");
        await keep("shout", "def shout(p):\n    while True:\n        print('x' * 10000)\n");
        await keep("leave", "import os\ndef leave(p):\n    os._exit(3)\n");
        await keep("odd", "class Coin:\n    def __repr__(self):\n        return 'Coin(gold)'\ndef odd(p):\n    return {'coin': Coin(), 'ratio': float('inf')}\n");
      } finally {
        await db.close();
      }
    });

    it("a hanging function times out", async () => {
      const hang = await run(a, "hang", { raw: imageForm(await coinImage(2), "c.png") });
      expect(hang.status).toBe(422);
      expect(hang.json.error).toMatchObject({ code: "unprocessable:function", kind: "timeout" });
    });

    it("a huge printer is stopped at the output cap", async () => {
      const shout = await run(a, "shout", { raw: imageForm(await coinImage(2), "c.png") });
      expect(shout.status).toBe(422);
      expect(shout.json.error.kind).toBe("output_too_large");
      expect(shout.json.stdout.length).toBeLessThanOrEqual(100_000);
    });

    it("a crash fails its call", async () => {
      const leave = await run(a, "leave", { raw: imageForm(await coinImage(2), "c.png") });
      expect(leave.status).toBe(422);
      expect(leave.json.error.kind).toBe("crashed");
    });

    it("a non-JSON return is its repr", async () => {
      const odd = await run(a, "odd", { raw: imageForm(await coinImage(2), "c.png") });
      expect(odd.status, odd.text).toBe(200);
      expect(odd.json.result).toEqual({ coin: "Coin(gold)", ratio: null });
    });

    it("after them, the kernels are still there for the next call", async () => {
      const again = await run(a, "count_coins", { raw: imageForm(await coinImage(9), "nine.png"), query: "?version=1" });
      expect(again.json.result).toBe(9);
    });
  });
});

describe("pictures a function saved (thumbnails made on first request)", () => {
  it("serves a real overlay and its thumbnail; never serves bytes that only look like a PNG, nor text saved as .png", async () => {
    const db = await openDatabase(world.server.database);
    try {
      await addFunctionVersion(db, {
        sessionId: a.id,
        name: "saves",
        // A real overlay, a PNG header followed by an HTML page, and plain text, all saved as .png.
        code: [
          "from PIL import Image",
          "def saves(p):",
          "    img = Image.open(p)",
          "    img.save('real.png')",
          "    head = open('real.png', 'rb').read(33)",
          "    open('forged.png', 'wb').write(head + b'<html><script>alert(1)</script></html>' * 40)",
          "    open('text.png', 'w').write('just text')",
          "    return 'saved'",
          "",
        ].join("\n"),
        test: "",
        runId: null,
        testOutput: "",
        success: true,
        now: new Date().toISOString(),
      });
    } finally {
      await db.close();
    }
    const res = await run(a, "saves", { raw: imageForm(await coinImage(4), "four.png") });
    expect(res.status, res.text).toBe(200);
    const images = res.json.images as string[];
    expect(images).toHaveLength(2); // the text file is not a picture at all
    const get = (url: string) => fetch(`${world.server.url}${url}`, { headers: { authorization: `Bearer ${a.token}` } });
    const served = await Promise.all(images.map(async (url) => ({ url, file: await get(url), thumb: await get(`${url}?variant=thumb`) })));
    const real = served.filter((s) => s.file.status === 200);
    const forged = served.filter((s) => s.file.status !== 200);
    expect(real).toHaveLength(1);
    expect(real[0]!.file.headers.get("content-type")).toBe("image/png");
    expect(real[0]!.thumb.status).toBe(200);
    expect(real[0]!.thumb.headers.get("content-type")).toBe("image/webp");
    expect(forged).toHaveLength(1);
    for (const answer of [forged[0]!.file, forged[0]!.thumb]) {
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("unprocessable:file");
    }
  });
});

describe("function tokens (scripts for a session made in a browser)", () => {
  it("runs the session's functions with a token made from the page, and opens nothing else", async () => {
    const made = await world.call("POST", `/api/sessions/${a.id}/function-tokens`, { token: a.token });
    expect(made.status).toBe(201);
    const token = made.json.token as string;
    expect(token).toMatch(/^[\w-]{40,}$/);
    // Listed without the secret.
    const listed = await world.call("GET", `/api/sessions/${a.id}/function-tokens`, { token: a.token });
    expect(listed.json.tokens).toEqual([{ id: made.json.id, createdAt: made.json.createdAt }]);

    // It runs functions on the bytes it sends...
    const ran = await run(a, "count_coins", { raw: imageForm(await coinsPng(), "coins.png"), token });
    expect(ran.status, ran.text).toBe(200);
    expect(JSON.stringify(ran.json.result)).toMatch(/^\[24,/);
    // ...never on the session's uploads by id (its own credentials still can).
    const byId = await run(a, "count_coins", { body: { uploadId: coinsUploadId }, token });
    expect([byId.status, byId.json.error.code]).toEqual([403, "forbidden:function"]);
    expect(byId.json.error.message).toMatch(/image it sends/);

    // A picture the function saves is readable with the token through its own `images` URL, and
    // only so: not by its bare id, not with another token, not the session's other pictures.
    const db = await openDatabase(world.server.database);
    let chatPictures: string[];
    try {
      const code = "from PIL import Image\ndef mark(p):\n    Image.open(p).convert('RGB').save('marked.png')\n    return 1\n";
      await addFunctionVersion(db, { sessionId: a.id, name: "mark", code, test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
      chatPictures = (await filesOfSession(db, a.id)).filter((f) => f.origin === "generated").map((f) => f.id);
    } finally {
      await db.close();
    }
    // The chat's runs made pictures of their own (cell outputs): generated files the token must not open.
    expect(chatPictures.length).toBeGreaterThan(0);
    const marked = await run(a, "mark", { raw: imageForm(await coinsPng(), "coins.png"), token });
    expect(marked.status, marked.text).toBe(200);
    const [picture] = marked.json.images as string[];
    expect(picture).toMatch(/^\/api\/files\/[\w-]+\?grant=[\w-]+$/);
    const fetched = await world.call("GET", picture!, { token });
    expect([fetched.status, fetched.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await world.call("GET", `${picture!}&variant=thumb`, { token })).status).toBe(200);
    const bare = picture!.split("?")[0]!;
    expect((await world.call("GET", bare, { token })).status).toBe(403);
    expect((await world.call("GET", picture!, { token: null })).status).toBe(401);
    // The session's own credentials open it with or without the grant.
    expect((await world.call("GET", bare, { token: a.token })).status).toBe(200);
    const other = await world.call("POST", `/api/sessions/${a.id}/function-tokens`, { token: a.token });
    expect((await world.call("GET", picture!, { token: other.json.token as string })).status).toBe(403);
    const grant = picture!.split("?")[1]!;
    for (const id of chatPictures) {
      for (const url of [`/api/files/${id}`, `/api/files/${id}?${grant}`]) expect((await world.call("GET", url, { token })).status, url).toBe(403);
    }
    for (const url of [`/api/files/${coinsUploadId}`, `/api/files/${coinsUploadId}?${grant}`]) expect((await world.call("GET", url, { token })).status).toBe(403);
    // The session's own token may still run on its uploads by id, and gets plain URLs.
    const mine = await run(a, "mark", { body: { uploadId: coinsUploadId } });
    expect(mine.status, mine.text).toBe(200);
    expect((mine.json.images as string[])[0]).toMatch(/^\/api\/files\/[\w-]+$/);

    // Only the run endpoint of this session: not the chat, not its functions list, not another session.
    expect((await world.call("GET", `/api/sessions/${a.id}`, { token })).status).toBe(403);
    expect((await world.call("GET", `/api/sessions/${a.id}/functions`, { token })).status).toBe(403);
    expect((await world.call("POST", `/api/sessions/${a.id}/function-tokens`, { token })).status).toBe(403);
    expect((await run(b, "count_coins", { body: { uploadId: coinsUploadId }, token })).status).toBe(403);

    // Revoked: refused from then on; revoking twice is a 404.
    const revoked = await world.call("DELETE", `/api/sessions/${a.id}/function-tokens/${made.json.id}`, { token: a.token });
    expect(revoked.status).toBe(200);
    expect((await run(a, "count_coins", { raw: imageForm(await coinsPng(), "coins.png"), token })).status).toBe(403);
    expect((await world.call("GET", picture!, { token })).status).toBe(403);
    expect((await world.call("DELETE", `/api/sessions/${a.id}/function-tokens/${made.json.id}`, { token: a.token })).status).toBe(404);
  });

  it("is made by the browser that owns the session, from Argus's own page only", async () => {
    const created = await world.call("POST", "/api/sessions", { token: null });
    const cookie = created.headers.get("set-cookie")!.split(";")[0]!;
    const id = created.json.id as string;
    const host = new URL(world.server.url).host;
    const crossSite = await world.call("POST", `/api/sessions/${id}/function-tokens`, {
      token: null,
      headers: { cookie, origin: "http://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const mine = await world.call("POST", `/api/sessions/${id}/function-tokens`, {
      token: null,
      headers: { cookie, origin: `http://${host}`, "sec-fetch-site": "same-origin", "x-argus-browser-proof": created.json.browserProof as string },
    });
    expect(mine.status).toBe(201);
    // The session has no function yet: the token is accepted and the answer is a plain 404.
    const none = await world.call("POST", `/api/sessions/${id}/functions/count_coins/run`, { token: mine.json.token as string, body: { uploadId: "x" } });
    expect(none.status).toBe(404);
  });
});
