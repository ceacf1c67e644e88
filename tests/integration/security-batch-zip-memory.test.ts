import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/engines/db/database";
import { addFunctionVersion } from "@/lib/engines/db/functions";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { tempDir } from "@/tests/helpers/temp-dir";
import { bombForm, memoryOf, zipOfZeros } from "@/tests/helpers/zip-bomb";

/**
 * A 563 KB zip of 500 entries of exactly 1 MiB of zeros passes the ratio check
 * (each entry starts past its floor), and every entry was held in memory: six
 * such requests took the server from 0.2 to 3.3 GB. The batch route also read
 * the whole form (up to 512 MB) before it looked the function up. The real
 * server, one request at a time where memory is measured (its peak, VmHWM).
 */
const MB = 1024 * 1024;
const scratch = tempDir();
let server: RunningServer;
let call: ReturnType<typeof api>;
let session: { id: string; token: string };
let bomb: Uint8Array;

beforeAll(async () => {
  // Made first: a request sent after seconds of idling can meet the server closing its keep-alive socket.
  bomb = zipOfZeros(500);
  server = await startArgus({ dataDir: scratch.dir, env: { ARGUS_JUPYTER: "off", ARGUS_BATCH_ZIP_UNPACKS: "1" } });
  call = api(server.url);
  session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
  const db = await openDatabase(server.database);
  try {
    await addFunctionVersion(db, { sessionId: session.id, name: "f", code: "def f(p):\n    return 1\n", test: "", runId: null, testOutput: "", success: true, now: new Date().toISOString() });
  } finally {
    await db.close();
  }
});
afterAll(async () => {
  if (process.env.ARGUS_TEST_DUMP && server) writeFileSync(`${process.env.ARGUS_TEST_DUMP}.log`, server.output());
  await server?.kill();
  scratch.cleanup();
});

const post = (form: FormData) => call("POST", `/api/sessions/${session.id}/batches`, { token: session.token, raw: form });

describe("batch zips and the server's memory", () => {
  it("unpacks 500 entries of 1 MiB of zeros without holding them: the server's peak grows by far less than 500 MB", async () => {
    const before = memoryOf(server.proc.pid!);
    const res = await post(bombForm(bomb));
    const after = memoryOf(server.proc.pid!);
    // Every entry was read and validated; only then is the batch refused, for want of kernels
    // (Jupyter is off here: running 500 failed rows would add nothing).
    expect(res.json.error, res.text).toMatchObject({ code: "unavailable:jupyter" });
    // Held whole, the entries alone were 500 MB on top of the peak.
    expect(after.peak - before.peak).toBeLessThan(200 * MB);
  });

  it("refuses a batch for a function that does not exist at its functionName, before reading the files behind it", async () => {
    const boundary = "argus-test-boundary";
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="functionName"\r\n\r\nno-such-function\r\n--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`;
    const total = 400 * MB; // under the 512 MB cap: only the early check refuses it
    const chunk = new Uint8Array(MB);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
      },
      pull(controller) {
        if (pulled >= total) {
          controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${server.url}/api/sessions/${session.id}/batches`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    const pulledWhenAnswered = pulled;
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { field: string } }).error.field).toBe("functionName");
    // Refused bodies are read on, bounded (64 MB, discard-body.ts), so the answer arrives; not to their end.
    expect(pulledWhenAnswered).toBeLessThan(200 * MB);
  });

  it("past ARGUS_BATCH_ZIP_UNPACKS zips at once, answers 429 with Retry-After instead of unpacking more", async () => {
    // Eight at once, as the attack sent them: one unpacks (the limit is 1 here), the others are
    // refused as soon as they are read (each body is 0.5 MB; unpacking one takes seconds).
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(bombForm(bomb))));
    const statuses = answers.map((a) => a.status).sort();
    // 503: unpacked and validated, then refused for want of kernels (see above); 429: not unpacked.
    expect(statuses.every((s) => s === 503 || s === 429), statuses.join(",")).toBe(true);
    expect(statuses).toContain(503);
    expect(statuses).toContain(429);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(refused.json.error).toMatchObject({ code: "rate_limited:upload", field: "zip" });
    }
  });
});
