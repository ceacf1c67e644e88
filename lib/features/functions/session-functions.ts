import { getFile } from "@/lib/engines/db/files";
import { functionsOfSession, functionVersion, functionVersions, type FunctionVersionRow } from "@/lib/engines/db/functions";
import { getSession } from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import { processUpload } from "@/lib/engines/files/process-upload";
import type { FunctionSummaryView, FunctionVersionView } from "@/lib/foundation/protocol/functions";
import type { SessionDeps } from "@/lib/features/sessions/service";
import { runFunction, type FunctionInput, type FunctionRunResult } from "./run-function";
import type { WarmFunctionRunners } from "./warm-runners";

/**
 * A session's kept functions as the API shows them, and one call of one of
 * them on an image (the HTTP run endpoint). Every lookup is scoped to the
 * session the caller's token opened: another session's function or upload is
 * "not found", never a hint that it exists.
 */
export type FunctionDeps = Pick<SessionDeps, "db" | "blobs" | "config" | "kernels"> & {
  /** Kernels kept warm between calls; without it every call gets a fresh kernel. */
  functionCalls?: WarmFunctionRunners | null;
};


export const versionView = (v: FunctionVersionRow): FunctionVersionView => ({
  name: v.name,
  version: v.version,
  code: v.code,
  test: v.test,
  runId: v.runId,
  testOutput: v.testOutput,
  success: v.success,
  createdAt: v.createdAt,
});

export function listFunctions(deps: FunctionDeps, sessionId: string): Promise<FunctionSummaryView[]> {
  return functionsOfSession(deps.db, sessionId);
}

export async function listVersions(deps: FunctionDeps, sessionId: string, name: string): Promise<FunctionVersionView[]> {
  const versions = await functionVersions(deps.db, sessionId, name);
  if (versions.length === 0) throw new ArgusError("not_found:function", `This session has no function named ${name}.`);
  return versions.map(versionView);
}

export async function getVersion(deps: FunctionDeps, sessionId: string, name: string, version: number | null): Promise<FunctionVersionRow> {
  const found = await functionVersion(deps.db, sessionId, name, version);
  if (found) return found;
  const any = await functionVersion(deps.db, sessionId, name, null);
  throw new ArgusError(
    "not_found:function",
    any ? `The function ${name} has no version ${version} (the latest is ${any.version}).` : `This session has no function named ${name}.`,
  );
}

/** The image the function is called with, from a session upload by id. */
export async function inputFromUpload(deps: FunctionDeps, sessionId: string, uploadId: string): Promise<FunctionInput> {
  const file = await getFile(deps.db, uploadId);
  if (!file || file.sessionId !== sessionId || file.origin !== "upload") {
    throw new ArgusError("not_found:file", "This session has no upload with that id.", { field: "uploadId" });
  }
  if (file.kind !== "image") throw new ArgusError("unsupported_media:upload", `${file.name} is not an image; the function runs on one image.`, { field: "uploadId" });
  return { name: file.name, bytes: await deps.blobs.read(file.sha256) };
}

/** The image the function is called with, from the request's bytes: checked exactly as an upload is, but not kept. */
export async function inputFromBytes(deps: FunctionDeps, bytes: Uint8Array, filename: string): Promise<FunctionInput> {
  const processed = await processUpload({
    bytes,
    filename,
    limits: { maxBytes: deps.config.limits.maxUploadBytes, maxPixels: deps.config.limits.maxImagePixels, maxVideoSeconds: deps.config.limits.maxVideoSeconds },
    python: deps.config.python,
    tmpDir: deps.config.tmpDir,
  });
  if (processed.kind !== "image") throw new ArgusError("unsupported_media:upload", "The function runs on one image; send a PNG, JPEG, WebP or similar picture.", { field: "file" });
  return { name: processed.name, bytes };
}

/** Runs one kept version (see getVersion) of a session function on one image, in a kernel kept warm for it when there is one. */
export async function callSessionFunction(deps: FunctionDeps, kept: FunctionVersionRow, input: FunctionInput): Promise<FunctionRunResult> {
  if (!deps.kernels) throw new ArgusError("unavailable:jupyter", "Functions cannot run: Jupyter is not available on this server.");
  const fn = { sessionId: kept.sessionId, name: kept.name, code: kept.code };
  const options = { limits: { timeoutMs: deps.config.functions.timeoutMs, maxOutputChars: deps.config.functions.maxOutputChars } };
  try {
    if (deps.functionCalls) return await deps.functionCalls.call(fn, input, options);
    return await runFunction({ kernels: deps.kernels, db: deps.db, blobs: deps.blobs }, fn, input, options);
  } catch (error) {
    // The session was deleted while its function ran (or just before, after the request was
    // authorized): its pictures have no session to be stored in. Say so, not "server error".
    if (!(error instanceof ArgusError) && !(await getSession(deps.db, kept.sessionId))) {
      throw new ArgusError("not_found:session", "This session was deleted while its function ran.", { cause: error });
    }
    throw error;
  }
}
