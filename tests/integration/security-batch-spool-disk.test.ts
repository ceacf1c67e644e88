import { statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { useArgusServer } from "@/tests/helpers/argus-server";

/**
 * A batch form is spooled to disk as it arrives (up to 512 MB a request, any number of requests
 * at once), and the disk guard was asked only when a request began: every request started above
 * the floor, then wrote on past it. The floor here is set 600 MB below what is free as the file
 * loads, and requests of 480 MB of files each (under the 512 MB cap; no function named, so none
 * could be accepted anyway) go at once: together they cross the floor, each alone would not. The
 * suite's other streams write to the same disk and delete what they wrote meanwhile (150 MB once
 * went between the measurement and the first request, and the session itself was refused; another
 * time 400 MB came back, and two requests no longer reached the floor), so the wide margin keeps the
 * session above the floor, and the number of requests is counted from what is free when they start.
 */
const freeMb = () => Math.floor((Number(statfsSync(tmpdir()).bavail) * Number(statfsSync(tmpdir()).bsize)) / (1024 * 1024));
const FLOOR_MB = Math.max(0, freeMb() - 600);
const argus = useArgusServer({ ARGUS_MIN_FREE_MB: String(FLOOR_MB) });
const REQUEST_MB = 480;

const MB = 1024 * 1024;
const BOUNDARY = "argus-spool-attack";

function formBody(totalBytes: number): ReadableStream<Uint8Array> {
  const head = new TextEncoder().encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = new Uint8Array(MB).fill(0x41);
  let sent = 0;
  let started = false;
  return new ReadableStream({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(head);
        return;
      }
      if (sent >= totalBytes) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

describe("a batch form spooled to disk", () => {
  it("stops with a 507 once the disk reaches the guard's floor, not after the whole body", async () => {
    const made = await argus.call("POST", "/api/sessions");
    expect(made.status).toBe(201);
    const send = async () => {
      const res = await fetch(`${argus.server.url}/api/sessions/${made.json.id}/batches`, {
        method: "POST",
        headers: { authorization: `Bearer ${made.json.token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
        body: formBody(REQUEST_MB * MB),
        duplex: "half",
      } as RequestInit);
      return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
    };
    // Enough requests that together they write 300 MB past the floor as the disk is now.
    const requests = Math.max(2, Math.ceil((freeMb() - FLOOR_MB + 300) / REQUEST_MB));
    const answers = await Promise.all(Array.from({ length: requests }, () => send()));
    // With the guard asked only as a request began, all began above the floor and all wrote
    // their whole 480 MB (then failed for want of a function): no 507 at all.
    const stopped = answers.filter((a) => a.status === 507);
    expect(stopped.length, JSON.stringify(answers)).toBeGreaterThan(0);
    for (const a of stopped) expect(a.body.error?.code).toBe("insufficient_storage:upload");
    for (const a of answers) expect(a.status, JSON.stringify(a)).toBeGreaterThanOrEqual(400);
  }, 300_000);
});
