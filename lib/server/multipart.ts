import busboy from "busboy";
import { ArgusError } from "@/lib/foundation/errors";
import { readCapped } from "./http";

/** Room for the multipart envelope (boundary, part headers) around one file of the upload limit. */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

/** Parts a one-file form (an upload, a function call) may have: the file and a few fields beside it. */
export const ONE_FILE_FORM_PARTS = 8;

/** Characters of one text field: forms here carry names and versions, never documents. */
export const MAX_FIELD_BYTES = 64 * 1024;

/** Bytes fed to the parser at a time, so a refusal stops it part-way through a large body. */
const FEED_BYTES = 1024 * 1024;

/** A file that arrived in a form field, with the name the client gave it ("" when it gave none). */
export interface FormFile {
  filename: string;
  bytes: Uint8Array;
}

export interface FormLimits {
  /** Bytes of the whole body (413 with `tooLarge` past it). */
  cap: number;
  tooLarge: string;
  /** The form's main field, named in refusals so the person knows which part of the request to fix. */
  field: string;
  /** Parts (files and fields) the form may have; past it a 413. */
  maxParts: number;
  /**
   * For a form spooled to disk (multipart-spool.ts): asked again as the body arrives, and throws
   * (the disk guard's 507) once writing on would take the disk past its floor.
   */
  checkRoom?: () => void;
}

/** Whether the request says its body is a multipart form (the media type is case-insensitive). */
export function isMultipartForm(req: Request): boolean {
  return (req.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * Reads a multipart/form-data body and parses it. The body is capped first
 * (413 with `tooLarge`, see readCapped), because parsing needs all of it in
 * memory; then its parts are counted as they are parsed (413 past `maxParts`),
 * because each part costs the parser an object whatever its size: 200 000
 * one-byte files in 16 MB held the event loop, every session's requests with
 * it, for ~10 s. A body that does not parse is a 400 that names `field`.
 */
export async function readCappedForm(req: Request, limits: FormLimits): Promise<FormData> {
  const raw = await readCapped(req, limits.cap, limits.tooLarge);
  return parseForm(raw, req.headers.get("content-type") ?? "", limits);
}

type Entry = { name: string; value: string } | { name: string; chunks: Buffer[]; filename: string; type: string };

function parseForm(raw: Uint8Array, contentType: string, limits: FormLimits): Promise<FormData> {
  const unreadable = () => new ArgusError("bad_request:upload", "The multipart body could not be read.", { field: limits.field });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // The name exactly as sent (busboy would cut a path to its last part): the upload checks
      // refuse a name with a path in it rather than store a name the person never gave.
      preservePath: true,
      defParamCharset: "utf8",
      // busboy reports its limit on reaching it; past it is one more.
      limits: { parts: limits.maxParts + 1, fieldSize: MAX_FIELD_BYTES },
    });
  } catch {
    throw unreadable(); // no boundary, or not multipart at all
  }
  return new Promise<FormData>((resolve, reject) => {
    // In arrival order: a file's bytes end after later fields have been seen.
    const entries: Entry[] = [];
    let failed = false;
    const fail = (error: ArgusError) => {
      if (failed) return;
      failed = true;
      parser.destroy();
      reject(error);
    };
    parser.on("partsLimit", () => fail(new ArgusError("payload_too_large:upload", `The form has more than ${limits.maxParts} parts.`, { field: limits.field })));
    parser.on("field", (name: string, value: string, info: busboy.FieldInfo) => {
      if (info.valueTruncated) fail(new ArgusError("payload_too_large:upload", `The form field '${name.slice(0, 100)}' is longer than ${MAX_FIELD_BYTES / 1024} KB.`, { field: limits.field }));
      entries.push({ name, value });
    });
    parser.on("file", (name: string, stream: NodeJS.ReadableStream, info: busboy.FileInfo) => {
      const entry = { name, chunks: [] as Buffer[], filename: info.filename ?? "", type: info.mimeType };
      entries.push(entry);
      stream.on("data", (chunk: Buffer) => entry.chunks.push(chunk));
      // A body cut short inside this file is reported on its own stream too (besides the parser):
      // unheard, that error would be an uncaught exception in the server.
      stream.on("error", () => fail(unreadable()));
    });
    parser.on("error", () => fail(unreadable()));
    parser.on("close", () => {
      if (failed) return;
      const form = new FormData();
      for (const entry of entries) {
        if ("value" in entry) form.append(entry.name, entry.value);
        else form.append(entry.name, new File([new Uint8Array(Buffer.concat(entry.chunks))], entry.filename, { type: entry.type }));
      }
      resolve(form);
    });
    for (let offset = 0; offset < raw.byteLength && !failed; offset += FEED_BYTES) {
      parser.write(Buffer.from(raw.buffer, raw.byteOffset + offset, Math.min(FEED_BYTES, raw.byteLength - offset)));
    }
    if (!failed) parser.end();
  });
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
