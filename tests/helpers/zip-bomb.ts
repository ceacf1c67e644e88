import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * A zip of `entries` entries of exactly 1 MiB of zeros (~563 KB for 500): each
 * entry starts past the per-entry ratio floor, so only the budget and the
 * memory spent unpacking stand between it and the server. Written by Python's
 * zipfile, as the attack archives of zip-input.test.ts are.
 */
export function zipOfZeros(entries: number): Uint8Array {
  const script = `import io, sys, zipfile\nbuf = io.BytesIO()\nz = zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED)\nblock = b"\\0" * (1024 * 1024)\nfor i in range(${entries}): z.writestr(f"z{i}.png", block)\nz.close()\nsys.stdout.buffer.write(buf.getvalue())`;
  return new Uint8Array(spawnSync("/usr/bin/python3", ["-c", script], { maxBuffer: 64 * 1024 * 1024 }).stdout);
}

/** A process's resident memory now and its peak so far (VmRSS, VmHWM), in bytes. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** The batch form of the attack: a function name, then the zip. */
export function bombForm(zip: Uint8Array, functionName = "f"): FormData {
  const form = new FormData();
  form.set("functionName", functionName);
  form.append("zip", new Blob([zip as BlobPart], { type: "application/zip" }), "zeros.zip");
  return form;
}
