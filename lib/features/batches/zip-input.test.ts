import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { readZip, type ZipLimits } from "./zip-input";

/**
 * Attack archives are written by Python's zipfile, which (unlike zip writers
 * meant for people) writes whatever name, mode and size it is told to.
 */
function pythonZip(script: string): Buffer {
  const out = spawnSync("/usr/bin/python3", ["-c", `import io, sys, zipfile\nbuf = io.BytesIO()\nz = zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED)\n${script}\nz.close()\ndata = buf.getvalue()\nsys.stdout.buffer.write(data)`], { maxBuffer: 64 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(out.stderr.toString());
  return out.stdout;
}

const limits: ZipLimits = { maxEntries: 10, maxTotalBytes: 20 * 1024 * 1024, maxEntryBytes: 8 * 1024 * 1024, maxRatio: 100 };
const PNG_HEAD = "b'\\x89PNG\\r\\n\\x1a\\n' + bytes(range(256)) * 8";

describe("readZip", () => {
  // Entries are spooled here (the caller's directory); each test's files are read back from it.
  const spool = tempDir();
  afterAll(() => spool.cleanup());
  it("reads a folder's files, skipping folders, hidden files and macOS forks", async () => {
    const zip = pythonZip(`z.writestr("shoot/a.png", ${PNG_HEAD})\nz.writestr("shoot/b.png", b"not really")\nz.writestr("shoot/", b"")\nz.writestr("__MACOSX/shoot/._a.png", b"x")\nz.writestr(".DS_Store", b"x")`);
    const files = await readZip(zip, limits, spool.dir);
    expect(files.map((f) => f.path)).toEqual(["shoot/a.png", "shoot/b.png"]);
    expect("file" in files[1]! && readFileSync(files[1].file, "utf8")).toBe("not really");
    expect(files[1]).toMatchObject({ size: 10 });
  });

  it("refuses a path that climbs out of the archive", async () => {
    const zip = pythonZip(`z.writestr("../evil.png", b"x")`);
    await expect(readZip(zip, limits, spool.dir)).rejects.toThrow(/climbs out of the archive \(\.\.\/evil\.png\)/);
  });

  it("refuses an absolute path", async () => {
    const zip = pythonZip(`z.writestr("/etc/evil.png", b"x")`);
    await expect(readZip(zip, limits, spool.dir)).rejects.toThrow(/absolute path/);
  });

  it("refuses a symbolic link entry", async () => {
    const zip = pythonZip(`i = zipfile.ZipInfo("link.png")\ni.external_attr = (0o120777 << 16)\ni.create_system = 3\nz.writestr(i, "/etc/passwd")`);
    await expect(readZip(zip, limits, spool.dir)).rejects.toThrow(/link\.png is a symbolic link/);
  });

  it("refuses an archive inside the archive, by name and by content", async () => {
    const named = pythonZip(`z.writestr("more.zip", b"x")`);
    await expect(readZip(named, limits, spool.dir)).rejects.toThrow(/more\.zip is an archive inside the archive/);
    const disguised = pythonZip(`inner = io.BytesIO()\nzz = zipfile.ZipFile(inner, "w")\nzz.writestr("x.png", b"x")\nzz.close()\nz.writestr("photo.png", inner.getvalue())`);
    await expect(readZip(disguised, limits, spool.dir)).rejects.toThrow(/photo\.png is an archive inside the archive/);
  });

  it("refuses a zip bomb by its inflation ratio, reading no further than the cap", async () => {
    const zip = pythonZip(`z.writestr("bomb.png", b"\\0" * (50 * 1024 * 1024))`);
    expect(zip.byteLength).toBeLessThan(200 * 1024);
    await expect(readZip(zip, limits, spool.dir)).rejects.toThrow(/inflates more than 100× its compressed size/);
  });

  it("refuses a zip whose entries together inflate past the total cap", async () => {
    // Random bytes do not compress, so no single entry trips the ratio; together they pass the total.
    const zip = pythonZip(`import os\nfor i in range(4):\n    z.writestr(f"{i}.png", os.urandom(6 * 1024 * 1024))`);
    await expect(readZip(zip, limits, spool.dir)).rejects.toThrow(/inflates to more than 20 MB/);
  });

  it("does not trust a header that understates an entry's size", async () => {
    // The entry really holds 3 MB; both headers are patched to say 1 KB.
    const out = spawnSync("/usr/bin/python3", ["-c", `
import io, struct, sys, zipfile
buf = io.BytesIO()
z = zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED)
z.writestr("liar.png", bytes(range(256)) * (12 * 1024))
z.close()
data = bytearray(buf.getvalue())
real = struct.pack("<I", 256 * 12 * 1024)
fake = struct.pack("<I", 1024)
data = data.replace(real, fake)
sys.stdout.buffer.write(bytes(data))
`]);
    await expect(readZip(out.stdout, limits, spool.dir)).rejects.toThrow(/different size than its header says/);
  });

  it("refuses more files than a batch takes", async () => {
    const zip = pythonZip(`for i in range(11):\n    z.writestr(f"{i}.png", b"x")`);
    await expect(readZip(zip, limits, spool.dir)).rejects.toThrow(/more than 10 files/);
  });

  it("fails only the one file past the upload limit, without reading all of it", async () => {
    const zip = pythonZip(`import os\nz.writestr("big.png", os.urandom(9 * 1024 * 1024))\nz.writestr("ok.png", b"fine")`);
    const files = await readZip(zip, { ...limits, maxTotalBytes: 100 * 1024 * 1024 }, spool.dir);
    expect(files[0]).toEqual({ path: "big.png", refused: expect.stringMatching(/larger than the 8 MB upload limit/) });
    expect(files[1]).toMatchObject({ path: "ok.png" });
  });

  it("says plainly when the bytes are not a zip", async () => {
    await expect(readZip(Buffer.from("hello, not a zip"), limits, spool.dir)).rejects.toThrow(/not a readable zip archive/);
  });

  it("streams entries to the spool directory, stopping a bomb without holding it", async () => {
    const before = new Set(readdirSync(spool.dir));
    const zip = pythonZip(`z.writestr("a.png", b"\\0" * (3 * 1024 * 1024))`);
    await expect(readZip(zip, { ...limits, maxRatio: 1000 }, spool.dir, 19 * 1024 * 1024)).rejects.toThrow(/inflates to more than 20 MB/);
    // What was inflated before the refusal went to one file on disk, which the caller's cleanup removes.
    const added = readdirSync(spool.dir).filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    expect(readdirSync(`${spool.dir}/${added[0]}`)).toEqual(["entry-00000"]);
  });
});
