import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import type { ArgusConfig } from "@/lib/foundation/config";
import type { Db } from "@/lib/engines/db/database";
import type { DiskSpace } from "@/lib/engines/db/disk-space";
import { ArgusError } from "@/lib/foundation/errors";
import type { ArrivedFile, BatchInput } from "@/lib/features/batches/batch-intake";
import { existingFunction } from "@/lib/features/batches/service";
import { CreateBatchFormSchema } from "@/lib/foundation/protocol/batches";
import { parseWith } from "./http";
import { ONE_FILE_FORM_PARTS } from "./multipart";
import { spoolForm, type SpooledForm } from "./multipart-spool";

/**
 * The multipart body is spooled to disk as it arrives (never held whole), and capped:
 * larger sets go in as session uploads first (then JSON `uploadIds`), or in parts.
 */
export const MAX_BATCH_BODY_BYTES = 512 * 1024 * 1024;

export type BatchFormDeps = { db: Db; config: ArgusConfig; disk: Pick<DiskSpace, "assertRoom"> };

/**
 * Reads a batch's multipart form (`functionName`, `functionVersion?`, files in `files` and/or
 * zips in `zip`) into a temporary spool, hands the function and the files to `use`, and removes
 * the spool when `use` is done, whatever happened.
 */
export async function withBatchForm<T>(
  req: Request,
  deps: BatchFormDeps,
  sessionId: string,
  use: (fn: { name: string; version?: number | null }, input: Extract<BatchInput, { kind: "files" }>) => Promise<T>,
): Promise<T> {
  await mkdir(deps.config.tmpDir, { recursive: true });
  const spool = await mkdtemp(path.join(deps.config.tmpDir, "batch-form-"));
  try {
    const form = await spoolForm(
      req,
      {
        cap: MAX_BATCH_BODY_BYTES,
        tooLarge: `The batch is larger than ${MAX_BATCH_BODY_BYTES / 1024 / 1024} MB; upload the files first and pick them, or send them in parts.`,
        field: "files",
        // Every file a batch may take, and its fields beside them (ONE_FILE_FORM_PARTS is room enough).
        maxParts: deps.config.batches.maxFiles + ONE_FILE_FORM_PARTS,
        // Asked again as the body arrives: the route's check held only when the request began.
        checkRoom: () => deps.disk.assertRoom("upload"),
      },
      spool,
      // Checked as soon as it arrives: no reading 512 MB for a function that does not exist.
      async (name, value) => {
        if (name === "functionName") await existingFunction(deps, sessionId, { name: value });
      },
    );
    const fields = parseWith(CreateBatchFormSchema, {
      functionName: fieldOf(form, "functionName"),
      ...(fieldOf(form, "functionVersion") ? { functionVersion: fieldOf(form, "functionVersion") } : {}),
    });
    return await use({ name: fields.functionName, version: fields.functionVersion }, { kind: "files", files: filesOf(form, "files"), zips: filesOf(form, "zip") });
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

function fieldOf(form: SpooledForm, name: string): string | undefined {
  return form.fields.find((f) => f.name === name)?.value;
}

/** Every file in `field`, in the order sent (none is fine); a plain text value there is a 400. */
function filesOf(form: SpooledForm, field: string): ArrivedFile[] {
  if (form.fields.some((f) => f.name === field)) throw new ArgusError("bad_request:upload", `The field '${field}' must hold files.`, { field });
  return form.files.filter((f) => f.field === field).map((f) => ({ filename: f.filename, file: f.file, size: f.size }));
}
