import { randomUUID } from "node:crypto";
import { mkdir, readdir } from "node:fs/promises";
import { filesOfSession, insertFile, type FileRow } from "@/lib/engines/db/files";
import { getSession, type SessionRow } from "@/lib/engines/db/sessions";
import { ArgusError } from "@/lib/foundation/errors";
import { fileUrl, type UploadView } from "@/lib/foundation/protocol/files";
import { workspaceDir, workspaceLock } from "@/lib/foundation/common/workspace";
import type { SessionDeps } from "@/lib/features/sessions/service";
import { uniqueName } from "./filename";
import { needsVerification } from "./lazy-thumbnail";
import { processUpload } from "./process-upload";
import { writeWorkspaceFile } from "./workspace-fs";
import { WorkspacePathError } from "./workspace-path";

export type { UploadView };

export function uploadView(f: FileRow): UploadView {
  return {
    id: f.id,
    name: f.name,
    kind: f.kind,
    mime: f.mime,
    size: f.size,
    width: f.width,
    height: f.height,
    durationSec: f.durationSec,
    url: fileUrl(f.id),
    thumbnailUrl: f.thumbSha256 || needsVerification(f) ? `${fileUrl(f.id)}?variant=thumb` : null,
  };
}

/**
 * Validates an upload, stores its bytes once in the blob store, and puts a copy
 * in the session's workspace under its (cleaned, de-duplicated) name so the
 * planner's kernel can open it by name. The kernel works on the copy; the
 * content-addressed original can't be altered from inside the sandbox.
 */
export async function storeUpload(
  deps: SessionDeps,
  session: SessionRow,
  input: { bytes: Uint8Array; filename: string },
): Promise<UploadView> {
  const processed = await processUpload({
    bytes: input.bytes,
    filename: input.filename,
    limits: {
      maxBytes: deps.config.limits.maxUploadBytes,
      maxPixels: deps.config.limits.maxImagePixels,
      maxVideoSeconds: deps.config.limits.maxVideoSeconds,
    },
    python: deps.config.python,
    tmpDir: deps.config.tmpDir,
  });

  // Under the workspace lock, which deleting the session also takes: either the
  // upload lands whole before a delete (which then removes it), or it finds the
  // session gone and writes nothing. A kernel adopting the workspace takes it too.
  const workspace = workspaceDir(deps.config, session.id);
  const row = await deps.locks.run(workspaceLock(session.id), async () => {
    if (!(await getSession(deps.db, session.id))) {
      throw new ArgusError("forbidden:session", "This session does not exist or your credentials do not open it.");
    }
    const original = await deps.blobs.put(input.bytes);
    const thumb = await deps.blobs.put(processed.thumbnail);
    // Transport `kernel`: the workspace is on the kernel host, never read or written here; the
    // registry copies the upload in through the kernel before the session's next cell.
    const shared = deps.config.kernels.workspaceTransport === "shared";
    if (shared) await mkdir(workspace, { recursive: true, mode: 0o700 });
    const taken = new Set<string>([
      ...(await filesOfSession(deps.db, session.id)).map((f) => f.name),
      ...(shared ? await readdir(workspace).catch(() => [] as string[]) : []),
    ]);
    const chosen = uniqueName(processed.name, taken);
    // The kernel may have planted a link under this very name (even after the
    // listing above): the write replaces whatever is there, never follows it.
    try {
      if (shared) await writeWorkspaceFile(workspace, chosen, input.bytes);
    } catch (error) {
      if (error instanceof WorkspacePathError) throw new ArgusError("bad_request:upload", "The file name is not allowed.", { field: "file" });
      throw error;
    }
    const file: FileRow = {
      id: randomUUID(),
      sessionId: session.id,
      origin: "upload",
      name: chosen,
      kind: processed.kind,
      mime: processed.mime,
      size: processed.size,
      sha256: original.sha256,
      width: processed.width,
      height: processed.height,
      durationSec: processed.durationSec,
      thumbSha256: thumb.sha256,
      thumbMime: processed.thumbnailMime,
      createdAt: new Date().toISOString(),
    };
    await insertFile(deps.db, file);
    return file;
  });
  return uploadView(row);
}
