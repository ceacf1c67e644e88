import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { KernelFiles, KernelTransferError, parseTransferAnswer, sha256Hex, silentTransfer, transferCode, TRANSFER_MARKER, type SilentRunner } from "./kernel-files";

const scratch = tempDir("argus-kernel-files-");
afterAll(scratch.cleanup);
const make = (name: string) => {
  const dir = path.join(scratch.dir, name);
  mkdirSync(dir);
  return dir;
};
/**
 * The kernel side for real (python/argus/workspace_transfer.py) in one long-lived Python process,
 * like a kernel: the argus package is imported once, and each step runs in `dir`.
 */
const python = spawn("/usr/bin/python3", ["-c", `
import contextlib, io, json, os, sys
for line in sys.stdin:
    req = json.loads(line)
    out = io.StringIO()
    os.chdir(req["dir"])
    with contextlib.redirect_stdout(out):
        exec(req["code"], {})
    sys.stdout.write(json.dumps({"stdout": out.getvalue()}) + "\\n")
    sys.stdout.flush()
`], { env: { PYTHONPATH: path.resolve("python") } as unknown as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "inherit"] });
afterAll(() => void python.kill());
const answers = createInterface({ input: python.stdout! })[Symbol.asyncIterator]();
let queue: Promise<unknown> = Promise.resolve();
const pythonIn =
  (dir: string): SilentRunner =>
  (code) => {
    const step = queue.then(async () => {
      python.stdin!.write(`${JSON.stringify({ dir, code })}\n`);
      const { value } = await answers.next();
      return { stdout: (JSON.parse(value as string) as { stdout: string }).stdout, error: null };
    });
    queue = step.catch(() => undefined);
    return step;
  };

describe("transferCode and parseTransferAnswer", () => {
  it("round-trip arguments that need quoting and read the marked line", () => {
    const code = transferCode("commit", { name: `a "quoted" \\ name.png`, size: 1 });
    expect(code).toContain(`.run("commit", "{\\"name\\":`);
    expect(parseTransferAnswer(`noise\n${TRANSFER_MARKER}{"result":{"ok":true}}\n`, null)).toEqual({ ok: true });
  });

  it("turn refusals and silence into readable errors", () => {
    expect(() => parseTransferAnswer(`${TRANSFER_MARKER}{"error":"checksum mismatch for 'a.png'"}`, null)).toThrow(/refused the file transfer: checksum mismatch/);
    expect(() => parseTransferAnswer("", "ModuleNotFoundError: No module named 'argus'")).toThrow(/No module named 'argus'.*importable/);
  });
});

describe("KernelFiles against the kernel-side module", () => {
  it("pushes in chunks and pulls back the same bytes", async () => {
    const dir = make("roundtrip");
    const files = new KernelFiles(silentTransfer(pythonIn(dir)), 1000);
    const bytes = randomBytes(3500);
    await files.push("upload.png", bytes);
    expect(readFileSync(path.join(dir, "upload.png")).equals(bytes)).toBe(true);
    expect(await files.missing({ "upload.png": sha256Hex(bytes), "b.png": "00" })).toEqual(["b.png"]);
    expect((await files.pull("upload.png", 10_000)).equals(bytes)).toBe(true);
  });

  it("refuses an oversize read before moving a byte", async () => {
    const dir = make("oversize");
    writeFileSync(path.join(dir, "big.png"), randomBytes(5000));
    let reads = 0;
    const counting: SilentRunner = (code) => {
      if (code.includes(`"read"`)) reads++;
      return pythonIn(dir)(code);
    };
    await expect(new KernelFiles(silentTransfer(counting), 1000).pull("big.png", 4000)).rejects.toThrow(/over the 4000 bytes allowed/);
    expect(reads).toBe(0);
  });

  it("refuses bytes damaged on the way back, and a push whose bytes were damaged on the way in", async () => {
    const dir = make("damaged");
    writeFileSync(path.join(dir, "out.png"), randomBytes(2000));
    // A channel that flips the first byte of every chunk the kernel sends back.
    const flipping: SilentRunner = async (code) => {
      const answer = await pythonIn(dir)(code);
      if (!code.includes(`"read"`)) return answer;
      const line = answer.stdout.trim().slice(TRANSFER_MARKER.length);
      const { result } = JSON.parse(line) as { result: { data: string } };
      const raw = Buffer.from(result.data, "base64");
      raw[0] = raw[0]! ^ 0xff;
      return { stdout: `${TRANSFER_MARKER}${JSON.stringify({ result: { data: raw.toString("base64") } })}\n`, error: null };
    };
    const pulled = new KernelFiles(silentTransfer(flipping), 500).pull("out.png", 10_000);
    await expect(pulled).rejects.toBeInstanceOf(KernelTransferError);
    await expect(pulled).rejects.toThrow(/checksum mismatch/);

    // ...and one that damages an append on the way in: the kernel side refuses to rename it into place.
    const damagingIn: SilentRunner = (code) =>
      pythonIn(dir)(code.includes(`"append"`) ? code.replace(/\\"data\\":\\"(.)/, (_m, c: string) => `\\"data\\":\\"${c === "A" ? "B" : "A"}`) : code);
    await expect(new KernelFiles(silentTransfer(damagingIn), 1000).push("in.png", randomBytes(1500))).rejects.toThrow(/checksum mismatch for 'in.png'/);
    expect(() => readFileSync(path.join(dir, "in.png"))).toThrow(/ENOENT/);
  });
});
