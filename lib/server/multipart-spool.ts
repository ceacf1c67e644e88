import { createWriteStream, type WriteStream } from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import busboy from "busboy";
import { ArgusError } from "@/lib/foundation/errors";
import { DISCARD_LIMIT_BYTES, discardRest } from "./discard-body";
import { MAX_FIELD_BYTES, type FormLimits } from "./multipart";

/** A file part of the form, written to `file` as it arrived. */
/** How often (in bytes read) a spooling form asks the disk guard again: one statfs per 8 MB. */
const ROOM_CHECK_BYTES = 8 * 1024 * 1024;

export interface SpooledFile {
  field: string;
  /** The name the client gave it ("" when it gave none). */
  filename: string;
  file: string;
  size: number;
}

export interface SpooledForm {
  /** Text fields, in arrival order. */
  fields: Array<{ name: string; value: string }>;
  files: SpooledFile[];
}

/**
 * Reads a multipart/form-data body as it arrives, for forms too large to hold
 * (a batch: up to 512 MB): each file part goes straight to its own file in
 * `dir` (the caller's, which it removes), so memory holds one chunk, not the
 * form. Each text field is shown to `onField` as soon as it is parsed, before
 * the rest of the body is read: a batch for a function that does not exist is
 * refused at its `functionName`, not after 512 MB. The same caps as
 * readCappedForm: bytes (413), parts (413), field length (413), and a body that
 * does not parse is a 400 naming `limits.field`.
 */
export async function spoolForm(
  req: Request,
  limits: FormLimits,
  dir: string,
  onField: (name: string, value: string) => Promise<void> | void = () => undefined,
): Promise<SpooledForm> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  // The route wrapper reads and discards the body before answering.
  if (Number.isFinite(declared) && declared > limits.cap) throw new ArgusError("payload_too_large:api", limits.tooLarge);
  const unreadable = () => new ArgusError("bad_request:upload", "The multipart body could not be read.", { field: limits.field });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": req.headers.get("content-type") ?? "" },
      preservePath: true, // as readCappedForm: a path in a name is refused later, not shortened
      defParamCharset: "utf8",
      limits: { parts: limits.maxParts + 1, fieldSize: MAX_FIELD_BYTES },
    });
  } catch {
    throw unreadable();
  }
  const form: SpooledForm = { fields: [], files: [] };
  const pending: Promise<unknown>[] = [];
  const outs: WriteStream[] = [];
  let failure: unknown = null;
  const fail = (error: unknown) => {
    if (failure === null) failure = error;
  };
  parser.on("partsLimit", () => fail(new ArgusError("payload_too_large:upload", `The form has more than ${limits.maxParts} parts.`, { field: limits.field })));
  parser.on("field", (name: string, value: string, info: busboy.FieldInfo) => {
    if (info.valueTruncated) fail(new ArgusError("payload_too_large:upload", `The form field '${name.slice(0, 100)}' is longer than ${MAX_FIELD_BYTES / 1024} KB.`, { field: limits.field }));
    form.fields.push({ name, value });
    pending.push(Promise.resolve().then(() => onField(name, value)).catch(fail));
  });
  parser.on("file", (field: string, stream: NodeJS.ReadableStream, info: busboy.FileInfo) => {
    const spooled: SpooledFile = { field, filename: info.filename ?? "", file: path.join(dir, `part-${form.files.length}`), size: 0 };
    form.files.push(spooled);
    const out = createWriteStream(spooled.file, { flags: "wx", mode: 0o600 });
    outs.push(out);
    stream.on("data", (chunk: Buffer) => (spooled.size += chunk.byteLength));
    // A body cut short inside this file is reported on its own stream too: unheard, it would be an
    // uncaught exception in the server (see readCappedForm). pipe() does not end its destination when
    // the source fails, so the file is closed here, or the form would wait on it for ever.
    stream.on("error", () => {
      fail(unreadable());
      out.destroy();
    });
    stream.pipe(out);
    pending.push(finished(out).catch(fail));
  });
  const parsed = new Promise<void>((resolve) => {
    parser.on("error", () => (fail(unreadable()), resolve()));
    parser.on("close", () => resolve());
  });

  if (!req.body) throw unreadable();
  const reader = req.body.getReader();
  let total = 0;
  let checkedAt = 0;
  for (;;) {
    if (failure !== null) break;
    const { done, value } = await reader.read();
    if (done) {
      parser.end();
      break;
    }
    total += value.byteLength;
    if (total > limits.cap) {
      fail(new ArgusError("payload_too_large:api", limits.tooLarge));
      break;
    }
    // The disk was checked when the request began; requests spooling at once would each write
    // on past the floor (up to the cap apiece), so it is asked again every ROOM_CHECK_BYTES.
    if (limits.checkRoom && total - checkedAt >= ROOM_CHECK_BYTES) {
      checkedAt = total;
      try {
        limits.checkRoom();
      } catch (error) {
        fail(error);
        break;
      }
    }
    // Let the parser (and the files behind it) catch up before reading more from the client.
    if (!parser.write(value)) {
      await new Promise<void>((resolve) => {
        parser.once("drain", resolve);
        void parsed.then(resolve); // a parser that failed or closed drains nothing
      });
    }
  }
  if (failure !== null) {
    parser.destroy();
    // Files cut off mid-way are closed here: nothing else would end them.
    for (const out of outs) out.destroy();
    // Read the rest (bounded) before the refusal goes out, or the client may see a reset instead.
    await discardRest(reader, { bytes: DISCARD_LIMIT_BYTES });
    await Promise.allSettled(pending);
    throw failure;
  }
  await parsed;
  await Promise.all(pending);
  if (failure !== null) throw failure;
  return form;
}
