import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tooLongMessage } from "@/lib/foundation/protocol/message-limit";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * GET /api/sessions/:id/markdown: a real chat (the scripted model's hello, a real upload) taken
 * away as a zip of chat.md and its pictures, read back with the system's own `unzip`; and the
 * over-long message refused in a person's words.
 */
let world: AgentWorld;
const scratch = tempDir("argus-export-");
beforeAll(async () => {
  world = await startAgentWorld(scenarioPath("hello.json"), { ARGUS_KERNEL_POOL: "0" });
});
afterAll(async () => {
  await world?.close();
  scratch.cleanup();
});

const download = (id: string, token?: string) =>
  fetch(`${world.server.url}/api/sessions/${id}/markdown`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe("chat export as Markdown", () => {
  it("zips chat.md with the chat's pictures, to the chat's owner only", async () => {
    const s = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const png = await coinsPng();
    const upload = await uploadFile(world, s, new Uint8Array(png), "coins photo.png");
    const watch = await watchSession(world.server.url, s);
    const sent = await world.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content: "hello there, Argus", media: [upload.id] } });
    expect(sent.status).toBe(202);
    expect((await watch.until(["finished", "error", "stopped"], 60_000, sent.json.runId)).agentState).toBe("finished");
    watch.socket.disconnect();

    const res = await download(s.id, s.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="hello-there-Argus.zip"');
    const zip = path.join(scratch.dir, "chat.zip");
    writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    expect(execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim().split("\n")).toEqual(["chat.md", "images/01-coins-photo.png"]);
    const md = execFileSync("unzip", ["-p", zip, "chat.md"], { encoding: "utf8" });
    expect(md).toMatch(/^# hello there, Argus\n\n\*Exported from Argus on \d{4}-\d\d-\d\d\.\*\n\n## You\n\nhello there, Argus\n\n!\[coins photo\.png\]\(<images\/01-coins-photo\.png>\)\n\n## Argus\n\nHello! I'm Argus/);
    execFileSync("unzip", ["-o", "-q", zip, "-d", path.join(scratch.dir, "out")]);
    expect(readFileSync(path.join(scratch.dir, "out", "images", "01-coins-photo.png")).equals(png)).toBe(true);

    const other = (await world.call("POST", "/api/sessions")).json as { token: string };
    expect((await download(s.id, other.token)).status).toBe(403);
    expect((await download(s.id)).status).toBe(401);
  });

  it("refuses an over-long message in plain words, not a validator's", async () => {
    const s = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const res = await world.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content: "x".repeat(20_001) } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "bad_request:api", field: "content", message: tooLongMessage(20_001) });
    expect(res.json.error.message).not.toMatch(/Too big|expected|<=|content:/);
    // At the limit it is taken.
    const ok = await world.call("POST", `/api/sessions/${s.id}/messages`, { token: s.token, body: { role: "user", content: "y".repeat(20_000) } });
    expect(ok.status).toBe(202);
  });
});
