import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSession } from "@/lib/engines/db/sessions";
import { storeUpload } from "@/lib/engines/files/store-upload";
import { removeSession } from "@/lib/features/sessions/service";
import { copyWorkspaceFiles } from "@/lib/engines/kernels/workspace";
import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS } from "@/tests/helpers/agent-run";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";
import { noisyImage } from "@/tests/helpers/media";

/**
 * A hostile planner cell against the server around the sandbox. The kernel
 * can't see the host, but it can plant links in its workspace whose targets
 * the SERVER would resolve on the host: `sessions/<id>/x -> ../../canary.png`
 * names `<data dir>/canary.png`, right beside `argus.db`. Each attack runs in
 * a real sandboxed kernel, racing the server as fast as Python can.
 */

const VQA_CALLS = 200;
let k: KernelCore;
let model: ScriptedModel;
let canary: Buffer;
let canaryPath: string;

beforeAll(async () => {
  model = await startScriptedModel({ name: "workspace attacks", turns: Array.from({ length: VQA_CALLS + 20 }, () => ({ model: "vqa", text: "a red square" })) });
  k = await startKernelCore({ ARGUS_KERNEL_POOL: "1", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS });
  // Big and noisy, so any copy of it is unmistakable by size and content.
  canary = await noisyImage(96, 96).png().toBuffer();
  canaryPath = path.join(k.dir, "canary.png");
  writeFileSync(canaryPath, canary);
});
afterAll(async () => {
  await k?.close();
  await model?.close();
});

const run = async (sessionId: string, code: string) => {
  const r = await k.kernels.execute(sessionId, code);
  expect(r.error, `${r.error?.name}: ${r.error?.value}\n${r.stderr}`).toBeNull();
  return r.stdout;
};

/** Starts a daemon thread in the session's kernel that runs `body` in a loop until `_attack_stop` is set. */
const startAttack = (sessionId: string, body: string) =>
  run(
    sessionId,
    `
import os, threading
_attack_stop = False
def _attack():
    while not _attack_stop:
        try:
${body.replace(/^/gm, "            ")}
        except OSError:
            pass
threading.Thread(target=_attack, daemon=True).start()
print("attacking")
`,
  );
const stopAttack = (sessionId: string) => run(sessionId, "_attack_stop = True\nimport time; time.sleep(0.2)\nprint('stopped')");

describe("the server never follows a link a kernel planted", () => {
  it("an upload lands as a file even while the kernel keeps planting links under its name", async () => {
    const s = await k.newSession();
    // Every name the upload could get, flipped between absent and a link to the canary.
    await startAttack(
      s.id,
      `for _name in ["image.png"] + ["image-%d.png" % i for i in range(1, 40)]:
    try:
        os.symlink("../../canary.png", _name)
    except FileExistsError:
        os.remove(_name)`,
    );
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer();
    const session = (await getSession(k.core.db, s.id))!;
    for (let i = 0; i < 30; i++) await storeUpload(k.core, session, { bytes: png, filename: "image.png" });
    await stopAttack(s.id);
    expect(readFileSync(canaryPath).equals(canary)).toBe(true);
    expect(readdirSync(k.dir).filter((f) => f.startsWith("image"))).toEqual([]);
  });

  it("the coder's isolated copy never copies what a swapped-in link points at", async () => {
    const s = await k.newSession();
    await run(s.id, "from PIL import Image\nImage.new('RGB', (4, 4), (255, 0, 0)).save('red.png')\nprint('ok')");
    await startAttack(
      s.id,
      `os.symlink("../../canary.png", "_l")
os.replace("_l", "photo.png")
os.link("red.png", "_r")
os.replace("_r", "photo.png")`,
    );
    const sessionDir = k.kernels.sessionDir(s.id);
    for (let i = 0; i < 300; i++) {
      const to = path.join(k.dir, `iso-${i}`);
      mkdirSync(to);
      await copyWorkspaceFiles(sessionDir, to);
      for (const f of readdirSync(to)) expect(readFileSync(path.join(to, f)).equals(canary), `copy ${i}: ${f}`).toBe(false);
    }
    // And end to end: an isolated kernel sees no canary.
    const seen = await k.kernels.isolated(s.id, async (iso) => (await iso.execute("import os\nprint(sorted((f, os.path.getsize(f)) for f in os.listdir('.') if os.path.isfile(f)))", { timeoutMs: 30_000 })).execution.stdout);
    await stopAttack(s.id);
    expect(seen).not.toContain(String(canary.length));
  });

  it("get_tool_for_task refuses paths that leave the workspace or are links, without creating anything or naming host paths", async () => {
    const s = await k.newSession();
    const out = await run(
      s.id,
      `
import os
from argus.bridge import call, BridgeError
os.symlink("../../canary.png", "link.png")
for p in ["../../canary.png", "/etc/passwd", "link.png", "../../../created-by-kernel/x.png", "sub/../../../x.png"]:
    try:
        call("get_tool_for_task", {"task": "find the faces", "images": [p], "candidates": ["detect_faces"]})
        print("ACCEPTED", p)
    except BridgeError as e:
        print("REFUSED", p, "::", e)
`,
    );
    expect(out).not.toContain("ACCEPTED");
    expect(out.match(/REFUSED/g)).toHaveLength(5);
    expect(out).not.toContain(k.dir);
    expect(existsSync(path.join(path.dirname(k.dir), "created-by-kernel"))).toBe(false);
    expect(existsSync(path.join(k.dir, "created-by-kernel"))).toBe(false);
    expect(readdirSync(path.join(k.dir, "sessions")).filter((f) => f.endsWith(".png"))).toEqual([]);
    expect(model.requests.filter((r) => r.model === "judge")).toEqual([]);
  });

  it(`vqa never sends a host file to the model, over ${VQA_CALLS} calls racing a link swap`, async () => {
    const s = await k.newSession();
    await run(s.id, "from PIL import Image\nImage.new('RGB', (8, 8), (255, 0, 0)).save('red.png')\nprint('ok')");
    await startAttack(
      s.id,
      `os.symlink("../../canary.png", "_l")
os.replace("_l", "flip.png")
os.link("red.png", "_r")
os.replace("_r", "flip.png")`,
    );
    const before = model.requests.length;
    const out = await run(
      s.id,
      `
from argus.bridge import call, BridgeError
_answers = {"ok": 0, "refused": 0}
for _ in range(${VQA_CALLS}):
    try:
        call("vqa", {"prompt": "What colour is it?", "images": ["flip.png"]})
        _answers["ok"] += 1
    except BridgeError as e:
        _answers["refused"] += 1
        _last = str(e)
print(_answers)
print(_last if _answers["refused"] else "")
`,
    );
    await stopAttack(s.id);
    const sent = model.requests.slice(before).filter((r) => r.model === "vqa");
    expect(sent.length).toBeGreaterThan(0);
    const sizes = new Set(sent.map((r) => JSON.stringify(r.messages).match(/"bytes":(\d+)/)?.[1]));
    // Every picture the model received is the 8x8 red square, the same bytes each time.
    expect(sizes.size).toBe(1);
    expect([...sizes][0]).toBeDefined();
    expect(Number([...sizes][0])).toBeLessThan(canary.length / 4);
    expect(out).not.toContain(k.dir);
  });

  it("deleting a session removes the links its kernel planted, never what they point at", async () => {
    const s = await k.newSession();
    const hostDir = path.join(k.dir, "host-dir");
    mkdirSync(hostDir);
    writeFileSync(path.join(hostDir, "keep.txt"), "KEEP");
    await run(
      s.id,
      `
import os
os.makedirs("deep/er", exist_ok=True)
open("deep/er/f.txt", "w").write("x")
os.symlink("../../host-dir", "dirlink")
os.symlink("../../../../host-dir", "deep/er/dirlink")
os.symlink("../../canary.png", "canary.png")
os.mkfifo("pipe")
print("planted")
`,
    );
    const sessionDir = k.kernels.sessionDir(s.id);
    await removeSession(k.core, (await getSession(k.core.db, s.id))!);
    expect(existsSync(sessionDir)).toBe(false);
    expect(readdirSync(hostDir)).toEqual(["keep.txt"]);
    expect(readFileSync(canaryPath).equals(canary)).toBe(true);
  });
});
