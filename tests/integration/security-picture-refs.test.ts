import { createHash } from "node:crypto";
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordedCells } from "@/lib/engines/kernels/cell-record";
import { buildNotebook } from "@/lib/engines/kernels/notebook";
import { FILE_REF_MIME } from "@/lib/engines/kernels/picture-refs";
import { storeExecutionImages } from "@/lib/engines/files/generated";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { eventually, startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";
import { noisyImage } from "@/tests/helpers/media";

/**
 * Big pictures come back from the kernel as references to files it wrote in
 * its workspace (python/argus/picture_refs.py). The kernel is the attacker: it
 * can put anything under the referenced name, at any moment. Every attack
 * here runs in a real sandboxed kernel, and must end as a sentence in the
 * cell's output: never a read outside the workspace, never a hang.
 */

let k: KernelCore;
/** A picture in ANOTHER session's workspace: the thing a reference must never reach. */
let canary: Buffer;
let canaryPath: string;
let canarySha: string;

beforeAll(async () => {
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "1" });
  canary = await noisyImage(64, 64).png().toBuffer();
  canarySha = createHash("sha256").update(canary).digest("hex");
  const other = await k.newSession();
  await k.kernels.execute(other.id, "x = 1");
  canaryPath = path.join(k.kernels.sessionDir(other.id), "secret.png");
  writeFileSync(canaryPath, canary);
});
afterAll(async () => {
  await k?.close();
});

const NAME = "0123456789abcdef0123456789abcdef.png";
const REF = `.argus-pictures/${NAME}`;

/** Kernel code that displays a file reference the kernel made up (the hook passes references through as they are). */
const displayRef = (ref: { path: string; size: number; sha256: string; mime?: string }) => `
from IPython.display import display
display({${JSON.stringify(FILE_REF_MIME)}: {"files": [{"mime": ${JSON.stringify(ref.mime ?? "image/png")}, "path": ${JSON.stringify(ref.path)}, "size": ${ref.size}, "sha256": ${JSON.stringify(ref.sha256)}}]}, "text/plain": "<picture>"}, raw=True)
`;

const prepare = (body: string) => `
import os
os.makedirs(".argus-pictures", exist_ok=True)
${body}
`;

const pictures = (r: Execution) => r.results.map((x) => x.data["image/png"]).filter((x): x is string => Boolean(x));

/** The cell ran, showed no picture, and says why in its output. */
function expectRefused(r: Execution, why: RegExp) {
  expect(r.error, `${r.error?.name}: ${r.error?.value}`).toBeNull();
  expect(pictures(r)).toEqual([]);
  expect(r.results.every((x) => !(FILE_REF_MIME in x.data))).toBe(true);
  expect(r.stderr).toMatch(/Argus could not show a picture: /);
  expect(r.stderr).toMatch(why);
  expect(r.results[0]?.data["text/plain"]).toMatch(/\[Argus: this picture could not be shown: /);
}

describe("a picture reference can't make the server read outside the workspace", () => {
  it("a link to another session's picture, by host path or relative, is refused (even claiming its exact size and hash)", async () => {
    const s = await k.newSession();
    for (const target of [canaryPath, path.relative(path.join(k.kernels.sessionDir(s.id), ".argus-pictures"), canaryPath), "/etc/passwd"]) {
      const r = await k.kernels.execute(s.id, prepare(`os.symlink(${JSON.stringify(target)}, ${JSON.stringify(REF)})`) + displayRef({ path: REF, size: canary.length, sha256: canarySha }));
      expectRefused(r, /symbolic link/);
    }
  });

  it("a folder swapped for a link to another session's workspace is refused", async () => {
    const s = await k.newSession();
    writeFileSync(path.join(path.dirname(canaryPath), NAME), canary);
    const r = await k.kernels.execute(s.id, `import os\nos.symlink(${JSON.stringify(path.dirname(canaryPath))}, ".argus-pictures")\n` + displayRef({ path: REF, size: canary.length, sha256: canarySha }));
    expectRefused(r, /link|not a file path/);
  });

  it("paths with .., absolute paths and names Argus did not make are refused before anything is opened", async () => {
    const s = await k.newSession();
    for (const p of [`.argus-pictures/../../${path.basename(path.dirname(canaryPath))}/secret.png`, canaryPath, "/workspace/secret.png", "secret.png"]) {
      const r = await k.kernels.execute(s.id, displayRef({ path: p, size: canary.length, sha256: canarySha }));
      expectRefused(r, /not a picture file Argus wrote/);
    }
  });

  it("a FIFO or a directory under the name ends the cell at once with a refusal", async () => {
    const s = await k.newSession();
    const fifo = await k.kernels.execute(s.id, prepare(`os.mkfifo(${JSON.stringify(REF)})`) + displayRef({ path: REF, size: 10, sha256: "0".repeat(64) }));
    expectRefused(fifo, /not a regular file/);
    const dir = await k.kernels.execute(s.id, prepare(`os.mkdir(${JSON.stringify(REF)})`) + displayRef({ path: REF, size: 10, sha256: "0".repeat(64) }));
    expectRefused(dir, /not a regular file/);
  });

  it("a file beyond the size cap is refused without being read", async () => {
    const s = await k.newSession();
    const size = 1024 ** 3;
    const r = await k.kernels.execute(s.id, prepare(`with open(${JSON.stringify(REF)}, "wb") as f:\n    f.truncate(${size})`) + displayRef({ path: REF, size, sha256: "0".repeat(64) }));
    expectRefused(r, /too large/);
  });

  it("a file whose content is not what was claimed is refused", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, prepare(`with open(${JSON.stringify(REF)}, "wb") as f:\n    f.write(b"root:x:0:0")`) + displayRef({ path: REF, size: 10, sha256: "0".repeat(64) }));
    expectRefused(r, /changed after it was written/);
  });

  it("a name flipped between a real picture and a link to another session's picture, in a loop, never shows the other picture", async () => {
    const s = await k.newSession();
    const own = await k.kernels.execute(
      s.id,
      prepare(`
import hashlib, threading, numpy as np
from PIL import Image
Image.fromarray(np.full((8, 8, 3), 200, np.uint8)).save("own.png")
_own = open("own.png", "rb").read()
print(len(_own), hashlib.sha256(_own).hexdigest())
_attack_stop = False
def _attack():
    while not _attack_stop:
        try:
            os.symlink(${JSON.stringify(canaryPath)}, "_l")
            os.replace("_l", ${JSON.stringify(REF)})
            os.link("own.png", "_r")
            os.replace("_r", ${JSON.stringify(REF)})
        except OSError:
            pass
threading.Thread(target=_attack, daemon=True).start()
`),
    );
    const [ownSize, ownSha] = own.stdout.trim().split(" ");
    const claims = [
      { path: REF, size: canary.length, sha256: canarySha },
      { path: REF, size: Number(ownSize), sha256: ownSha! },
    ];
    let shown = 0;
    let refused = 0;
    for (let i = 0; i < 10; i++) {
      const r = await k.kernels.execute(s.id, claims.map(displayRef).join("\n").repeat(10));
      expect(r.error).toBeNull();
      for (const picture of pictures(r)) {
        expect(Buffer.from(picture, "base64").equals(canary)).toBe(false);
        shown++;
      }
      refused += r.results.filter((x) => /could not be shown/.test(x.data["text/plain"] ?? "")).length;
    }
    await k.kernels.execute(s.id, "_attack_stop = True");
    expect(shown + refused).toBe(200);
  });
});

describe("big pictures travel as files and arrive as pictures", () => {
  it("a 5 MP picture displays as a stored picture and in the notebook export, and its file is gone afterwards", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(
      s.id,
      "import numpy as np\nfrom PIL import Image\nImage.fromarray(np.random.default_rng(0).integers(0, 255, (1944, 2592, 3), dtype=np.uint8))",
      { timeoutMs: 120_000 },
    );
    expect(r.error).toBeNull();
    expect(r.stderr).toBe("");
    const [png] = pictures(r);
    expect(png!.length).toBeGreaterThan(10_000_000);
    expect(r.results[0]!.data[FILE_REF_MIME]).toBeUndefined();
    const meta = await sharp(Buffer.from(png!, "base64")).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([2592, 1944, "png"]);
    expect(readdirSync(path.join(k.kernels.sessionDir(s.id), ".argus-pictures"))).toEqual([]);

    // The chat shows it from the session's generated files, like any inline picture.
    const [stored] = await storeExecutionImages(k.core, s.id, r, "cell");
    expect([stored?.width, stored?.height]).toEqual([2592, 1944]);

    // The notebook export carries the picture itself.
    let exported = "";
    await eventually(async () => {
      const nb = buildNotebook(await recordedCells({ db: k.core.db, dataDir: k.dir }, s.id), { title: null }) as { cells: { outputs?: { data?: Record<string, unknown> }[] }[] };
      exported = String(nb.cells.at(-1)?.outputs?.find((o) => o.data?.["image/png"])?.data?.["image/png"] ?? "");
      return exported.length > 0;
    });
    expect(exported.replace(/\s/g, "")).toBe(png);
  });

  it("a small picture still travels inline", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, "import numpy as np\nfrom PIL import Image\nImage.fromarray(np.zeros((40, 40, 3), np.uint8))");
    expect(pictures(r)).toHaveLength(1);
    expect(r.stderr).toBe("");
  });
});
