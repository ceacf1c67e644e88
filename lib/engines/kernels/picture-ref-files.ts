import { webcrypto } from "node:crypto";
import { readWorkspaceFile, removeWorkspaceFile } from "@/lib/engines/files/workspace-fs";
import type { Execution, ExecutionResult } from "@/lib/foundation/protocol/contexts";
import { checkPictureBytes, FILE_REF_MIME, MAX_PICTURE_FILE_BYTES, parsePictureRefs, PictureRefError, type PictureRef } from "./picture-refs";

/**
 * Turns the file references of a finished cell back into the pictures they
 * stand for, so everything downstream (the chat's stored images, the planner's
 * view_image, the notebook export) sees the same output as for a picture that
 * travelled inline. Each file is read through workspace-fs: opened relative to
 * the workspace with no link followed on the way, checked to be a regular file
 * of bounded size on the descriptor, and compared with the size and hash the
 * kernel claimed. A reference that fails any of this becomes a sentence in the
 * cell's output (and stderr) instead of a picture; the file is deleted either way.
 */
export async function resolvePictureRefs(workspace: string, execution: Execution, maxBytes = MAX_PICTURE_FILE_BYTES): Promise<Execution> {
  if (!execution.results.some((r) => FILE_REF_MIME in r.data)) return execution;
  const problems: string[] = [];
  const results: ExecutionResult[] = [];
  for (const result of execution.results) {
    const value = result.data[FILE_REF_MIME];
    if (value === undefined) {
      results.push(result);
      continue;
    }
    const data = { ...result.data };
    delete data[FILE_REF_MIME];
    const refuse = (error: unknown) => {
      problems.push(describe(error));
      data["text/plain"] = `${data["text/plain"] ?? ""}\n[Argus: this picture could not be shown: ${describe(error)}]`.trim();
    };
    let refs: PictureRef[] = [];
    try {
      refs = parsePictureRefs(value);
    } catch (error) {
      refuse(error);
    }
    for (const ref of refs) {
      try {
        data[ref.mime] = (await readPicture(workspace, ref, maxBytes)).toString("base64");
      } catch (error) {
        refuse(error);
      }
    }
    results.push({ ...result, data });
  }
  if (!problems.length) return { ...execution, results };
  const stderr = execution.stderr && !execution.stderr.endsWith("\n") ? `${execution.stderr}\n` : execution.stderr;
  return { ...execution, results, stderr: stderr + problems.map((p) => `Argus could not show a picture: ${p}.\n`).join("") };
}

async function readPicture(workspace: string, ref: PictureRef, maxBytes: number): Promise<Buffer> {
  try {
    const bytes = await readWorkspaceFile(workspace, ref.path, { maxBytes });
    // WebCrypto's digest runs on the thread pool: hashing 15 MB on the event loop stalled every session.
    const digest = Buffer.from(await webcrypto.subtle.digest("SHA-256", bytes)).toString("hex");
    checkPictureBytes(ref, bytes, digest);
    return bytes;
  } finally {
    // Whatever it was (a picture, a link, a FIFO), the name is the kernel's transport and is done with.
    await removeWorkspaceFile(workspace, ref.path).catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (error instanceof PictureRefError) return error.message;
  if (error instanceof Error && error.name === "WorkspacePathError") return error.message.replace(/\.$/, "");
  return "its file could not be read";
}
