import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { zipFiles } from "./zip-writer";

/** Every entry of a zip as read by yauzl (the reader batch uploads use): path → text. */
function readZip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const out = new Map<string, string>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

describe("zipFiles", () => {
  it("writes entries a standard reader gets back byte for byte, names in UTF-8", async () => {
    const big = "def f(x):\n    return x\n".repeat(2000);
    const zip = zipFiles([
      { path: "count/count.py", bytes: Buffer.from(big) },
      { path: "count/argus/__init__.py", bytes: Buffer.from("") },
      { path: "count/README-é.txt", bytes: Buffer.from("héllo") },
    ]);
    const entries = await readZip(zip);
    expect([...entries.keys()]).toEqual(["count/count.py", "count/argus/__init__.py", "count/README-é.txt"]);
    expect(entries.get("count/count.py")).toBe(big);
    expect(entries.get("count/argus/__init__.py")).toBe("");
    expect(entries.get("count/README-é.txt")).toBe("héllo");
    expect(zip.length).toBeLessThan(big.length / 10); // deflated, not stored
  });

  it("is the same bytes for the same files (no clock inside)", () => {
    const files = [{ path: "a/b.py", bytes: Buffer.from("x = 1\n") }];
    expect(zipFiles(files).equals(zipFiles(files))).toBe(true);
  });

  it("refuses paths that could land outside the folder it is unpacked in", () => {
    for (const path of ["../x.py", "/etc/x", "a/../../x", "a\\b.py", "", "a//b"]) {
      expect(() => zipFiles([{ path, bytes: Buffer.from("") }]), path).toThrow(/plain relative path/);
    }
  });
});
