import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { EventLog } from "@/lib/features/runtime/event-log";
import { api, startArgus } from "@/tests/helpers/argus-server";
import { userMessage } from "@/tests/helpers/events";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir();
afterAll(scratch.cleanup);

async function png(seed: number): Promise<Uint8Array> {
  return sharp({ create: { width: 32, height: 24, channels: 3, background: { r: seed % 256, g: 80, b: 160 } } })
    .png()
    .toBuffer();
}

describe("killing the server keeps every acknowledged session, event and upload", () => {
  it("survives SIGKILL in the middle of uploads and appends", async () => {
    const first = await startArgus({ dataDir: scratch.dir });
    const call = api(first.url);
    const sessions: { id: string; token: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", "/api/sessions");
      sessions.push(res.json as { id: string; token: string });
    }

    // Another process appends events to the same database while the server runs
    // (SQLite WAL), standing in for the agent runtime that lands later.
    const db = await openDatabase(first.database);
    const log = new EventLog(db);
    let appended = 0;
    for (const s of sessions) for (let i = 0; i < 20; i++, appended++) await log.append(s.id, userMessage(`event ${i}`));

    const acknowledged: { session: { id: string; token: string }; upload: Record<string, unknown>; bytes: Uint8Array }[] = [];
    const upload = async (i: number) => {
      const session = sessions[i % sessions.length]!;
      const bytes = await png(i);
      const form = new FormData();
      form.set("file", new Blob([bytes as BlobPart], { type: "image/png" }), `shot-${i}.png`);
      const res = await fetch(`${first.url}/api/sessions/${session.id}/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${session.token}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
      acknowledged.push({ session, upload: (await res.json()) as Record<string, unknown>, bytes });
    };
    for (let i = 0; i < 6; i++) await upload(i);
    // A burst in flight when the process dies: some finish, some never answer.
    const burst = Array.from({ length: 8 }, (_, k) => upload(6 + k).catch(() => undefined));
    await new Promise((r) => setTimeout(r, 15));
    await first.kill("SIGKILL");
    await Promise.all(burst);
    await db.close();
    expect(acknowledged.length).toBeGreaterThanOrEqual(6);

    const second = await startArgus({ dataDir: scratch.dir });
    try {
      const call2 = api(second.url);
      for (const s of sessions) {
        const view = await call2("GET", `/api/sessions/${s.id}`, { token: s.token });
        expect(view.status).toBe(200);
        expect(view.json.messages.map((m: { content: string }) => m.content)).toEqual(
          Array.from({ length: 20 }, (_, i) => `event ${i}`),
        );
        expect(view.json.messages.map((m: { seq: number }) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      }
      for (const a of acknowledged) {
        const res = await fetch(`${second.url}${a.upload.url as string}`, { headers: { authorization: `Bearer ${a.session.token}` } });
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(a.bytes))).toBe(true);
      }
      expect(appended).toBe(60);
    } finally {
      await second.kill();
    }
  });
});
