import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

let k: KernelCore;
const PLANTED = "sk-planted-secret-for-the-sandbox-test";
beforeAll(async () => {
  // Secrets in the server's own environment must never reach a kernel.
  process.env.OPENAI_API_KEY = PLANTED;
  process.env.ARGUS_PLANTED_SECRET = PLANTED;
  k = await startKernelCore();
});
afterAll(async () => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.ARGUS_PLANTED_SECRET;
  await k?.close();
});

const run = async (sessionId: string, code: string) => (await k.kernels.execute(sessionId, code)).stdout.trim();

/** Python that prints OK if reading `p` fails, or LEAK and the bytes if it succeeds. */
const tryRead = (p: string) =>
  `try:\n    data = open(${JSON.stringify(p)}, 'rb').read(64)\n    print('LEAK', data)\nexcept OSError as e:\n    print('OK', type(e).__name__)`;

describe("the kernel sandbox", () => {
  it("is bubblewrap on this machine, and health says so", async () => {
    expect(k.core.isolation.kind).toBe("bubblewrap");
    expect((await k.core.health()).isolation).toBe("bubblewrap");
  });

  it("holds no API keys or server secrets", async () => {
    const s = await k.newSession();
    const out = await run(s.id, "import os, json\nprint(json.dumps(dict(os.environ)))");
    expect(out).not.toContain(PLANTED);
    const env = JSON.parse(out) as Record<string, string>;
    expect(Object.keys(env)).not.toContain("OPENAI_API_KEY");
    expect(Object.keys(env).some((key) => key.startsWith("JUPYTER") || key.startsWith("ARGUS_PLANTED"))).toBe(false);
    expect(await run(s.id, "import os\nprint(open('/proc/self/environ','rb').read().count(b'sk-planted'))")).toBe("0");
  });

  it("cannot read the database, another session's workspace, or anything outside its own workspace", async () => {
    const mine = await k.newSession();
    const other = await k.newSession();
    const otherDir = path.join(k.core.config.sessionsDir, other.id);
    mkdirSync(otherDir, { recursive: true });
    writeFileSync(path.join(otherDir, "private.txt"), "other session's data");
    await k.kernels.acquire(other.id);
    for (const target of [
      k.core.config.dbPath,
      path.join(otherDir, "private.txt"),
      `/workspace/../${other.id}/private.txt`,
      path.join(process.cwd(), "package.json"),
      "/root/.bashrc",
      "/etc/shadow",
      path.join(k.core.config.dataDir, "jupyter", "runtime"),
    ]) {
      expect(await run(mine.id, tryRead(target)), target).toMatch(/^OK /);
    }
    const listing = await run(mine.id, "import os\nprint(sorted(os.listdir('/')))");
    expect(listing).not.toMatch(/'work'|'root'|'home'/);
  });

  it("has a read-only system, a writable workspace and no network", async () => {
    const s = await k.newSession();
    expect(await run(s.id, "try:\n    open('/usr/argus-test', 'w')\n    print('WROTE')\nexcept OSError as e:\n    print('OK', type(e).__name__)")).toMatch(/^OK /);
    expect(await run(s.id, "open('made.txt', 'w').write('x'); print('ok')")).toBe("ok");
    expect(await run(s.id, "import socket\ntry:\n    socket.create_connection(('127.0.0.1', 22), timeout=2)\n    print('CONNECTED')\nexcept OSError as e:\n    print('OK', e.errno)")).toMatch(/^OK /);
  });

  it("still has the vision stack", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, "import numpy, cv2, PIL, matplotlib, skimage\nprint(cv2.__version__)");
    expect(r.error).toBeNull();
    expect(r.stdout).toMatch(/^4\./);
  });
});
