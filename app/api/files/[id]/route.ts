import { getFile } from "@/lib/engines/db/files";
import { verifiedFile } from "@/lib/engines/files/lazy-thumbnail";
import { ArgusError } from "@/lib/foundation/errors";
import { FileGrantQuery, FileVariantQuery } from "@/lib/foundation/protocol/api";
import { parseByteRange } from "@/lib/server/byte-range";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, parseWith, route } from "@/lib/server/http";
import { authorizeFileRead } from "@/lib/features/sessions/function-tokens";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** An uploaded or generated file, readable only by its own session. */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("files");
  const { id } = await params;
  const cred = credentialsOf(req);
  const query = new URL(req.url).searchParams;
  const file = await getFile(area.db, id);
  // Authorise against the owning session; an unknown id answers like a foreign one.
  await authorizeFileRead(area, file, cred, parseWith(FileGrantQuery, query.get("grant") ?? undefined) ?? null);
  if (!file) throw new ArgusError("not_found:file", "No such file.");

  const variant = parseWith(FileVariantQuery, query.get("variant") ?? undefined);
  // A picture a kernel wrote is decoded whole before it is first served (its thumbnail is made then).
  const checked = await verifiedFile(area, file);
  const sha = variant === "thumb" ? checked.thumbSha256 : checked.sha256;
  const mime = variant === "thumb" ? checked.thumbMime : checked.mime;
  if (!sha || !mime) throw new ArgusError("not_found:file", "This file has no thumbnail.");
  const bytes = await area.blobs.read(sha);

  const headers = new Headers({
    "content-type": mime,
    "accept-ranges": "bytes",
    "cache-control": "private, max-age=31536000, immutable",
    etag: `"${sha}"`,
    "x-content-type-options": "nosniff",
    // Opened directly, the file is inert: no scripts, no embedding elsewhere.
    "content-security-policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
    "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  });
  if (req.headers.get("if-none-match") === `"${sha}"`) return new Response(null, { status: 304, headers });

  const range = parseByteRange(req.headers.get("range"), bytes.length);
  if (range === "unsatisfiable") {
    headers.set("content-range", `bytes */${bytes.length}`);
    return new Response(null, { status: 416, headers });
  }
  if (range) {
    headers.set("content-range", `bytes ${range.start}-${range.end}/${bytes.length}`);
    headers.set("content-length", String(range.end - range.start + 1));
    return new Response(new Uint8Array(bytes.subarray(range.start, range.end + 1)), { status: 206, headers });
  }
  headers.set("content-length", String(bytes.length));
  return new Response(new Uint8Array(bytes), { status: 200, headers });
});
