import { ArgusError } from "@/lib/errors";
import { readCapped } from "./http";

/** Room for the multipart envelope (boundary, part headers) around one file of the upload limit. */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

/** A file that arrived in a form field, with the name the client gave it ("" when it gave none). */
export interface FormFile {
  filename: string;
  bytes: Uint8Array;
}

/** Whether the request says its body is a multipart form (the media type is case-insensitive). */
export function isMultipartForm(req: Request): boolean {
  return (req.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * Reads a multipart/form-data body and parses it. The body is capped first
 * (413 with `tooLarge`, see readCapped), because parsing needs all of it in
 * memory. A body that does not parse is a 400 that names `field`, the form's
 * main field, so the person knows which part of the request to fix.
 */
export async function readCappedForm(req: Request, limits: { cap: number; tooLarge: string; field: string }): Promise<FormData> {
  const raw = await readCapped(req, limits.cap, limits.tooLarge);
  try {
    // The original header, boundary and all: the parser needs its exact spelling.
    return await new Response(raw, { headers: { "content-type": req.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new ArgusError("bad_request:upload", "The multipart body could not be read.", { field: limits.field });
  }
}

/** The file in `field`, or a 400 saying the form has no `what` (a "file", an "image") there. */
export async function requiredFile(form: FormData, field: string, what: string): Promise<FormFile> {
  const value = form.get(field);
  if (!(value instanceof Blob)) throw new ArgusError("bad_request:upload", `The form has no ${what} in a field named '${field}'.`, { field });
  return formFile(value);
}

/** Every file in `field`, in the order sent (none is fine); a plain text value there is a 400. */
export async function filesIn(form: FormData, field: string): Promise<FormFile[]> {
  const out: FormFile[] = [];
  for (const value of form.getAll(field)) {
    if (!(value instanceof Blob)) throw new ArgusError("bad_request:upload", `The field '${field}' must hold files.`, { field });
    out.push(await formFile(value));
  }
  return out;
}

async function formFile(blob: Blob): Promise<FormFile> {
  // A Blob sent without a filename has no name; a File has one (maybe "").
  const filename = "name" in blob && typeof blob.name === "string" ? blob.name : "";
  return { filename, bytes: new Uint8Array(await blob.arrayBuffer()) };
}
