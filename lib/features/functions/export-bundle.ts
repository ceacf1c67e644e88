import { zipFiles } from "@/lib/engines/files/zip-writer";
import { argusPackageFiles } from "@/lib/engines/kernels/argus-package";
import { exportScript, type ExportedFunction } from "./export-script";

/**
 * A kept function as a zip that runs outside Argus: `<name>.py` (exportScript) beside the kernel's
 * own `argus` package, at the top of the zip, so `python3 <name>.py IMAGE…` runs where it is
 * unpacked and the code calls exactly the tools it called in the notebook: classical ones on the
 * machine it runs on, neural ones on the Argus server over HTTP.
 */
export async function exportBundle(fn: ExportedFunction, pythonDir: string): Promise<Buffer> {
  return zipFiles([{ path: `${fn.name}.py`, bytes: Buffer.from(exportScript(fn)) }, ...(await argusPackageFiles(pythonDir))]);
}

/** The HTTP answer of both export routes (the latest version, or one named version). */
export async function exportResponse(fn: ExportedFunction, pythonDir: string): Promise<Response> {
  const zip = await exportBundle(fn, pythonDir);
  return new Response(new Uint8Array(zip), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${fn.name}.zip"`,
      "cache-control": "no-store",
    },
  });
}
