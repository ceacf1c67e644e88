import { getFile } from "@/lib/engines/db/files";
import type { SessionRow } from "@/lib/engines/db/sessions";
import { zipFiles, type ZipFile } from "@/lib/engines/files/zip-writer";
import { chatMarkdown, pictureUrls, type MarkdownPicture } from "./chat-markdown";
import type { SessionDeps } from "./service";

/**
 * A chat to take away: `chat.md` and the pictures it shows in `images/`, as one zip. A zip rather
 * than Markdown with data URLs: the pictures stay ordinary files (a 2 MB photo is not 2.7 MB of
 * base64 inside a line of text), and editors and Git hosts show relative image links, which many
 * refuse as data URLs.
 */
const FILE_URL = /^\/api\/files\/([\w-]+)(?:[?#].*)?$/;

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif", "video/mp4": "mp4", "video/webm": "webm", "video/quicktime": "mov" };

/** A name safe in any zip tool and file system: letters, digits, `._-`, nothing hidden. */
function safeName(name: string, mime: string): string {
  const ext = EXTENSIONS[mime];
  const stem = name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 60) || "picture";
  return ext ? `${stem}.${ext}` : name.replace(/[^\w.-]+/g, "-").replace(/^[-.]+/, "").slice(0, 70) || "file";
}

/** `Count-the-coins.zip`, after the chat's title (as the notebook's download is named). */
export function exportFileName(title: string | null): string {
  // No leading or trailing dots or dashes: "Count the coins, please." is Count-the-coins-please.zip.
  const base = (title ?? "argus-chat").replace(/[^\w.-]+/g, "-").slice(0, 80).replace(/^[-.]+|[-.]+$/g, "") || "argus-chat";
  return `${base}.zip`;
}

export async function chatExportZip(deps: Pick<SessionDeps, "db" | "blobs" | "events">, session: SessionRow, now = new Date()): Promise<Buffer> {
  const messages = await deps.events.messagesAfter(session.id, 0);
  const found = new Map<string, MarkdownPicture>();
  const files: ZipFile[] = [];
  for (const url of pictureUrls(messages)) {
    const id = FILE_URL.exec(url)?.[1];
    const file = id ? await getFile(deps.db, id) : null;
    // Only this chat's own files; anything else is named in the text as not stored.
    if (!file || file.sessionId !== session.id) continue;
    const bytes = await deps.blobs.read(file.sha256).catch(() => null);
    if (!bytes) continue;
    const path = `images/${String(files.length + 1).padStart(2, "0")}-${safeName(file.name, file.mime)}`;
    files.push({ path, bytes: new Uint8Array(bytes) });
    found.set(url, { path, alt: file.name });
  }
  const markdown = chatMarkdown({ title: session.title, exportedAt: now.toISOString(), messages, pictures: found });
  return zipFiles([{ path: "chat.md", bytes: new TextEncoder().encode(markdown) }, ...files]);
}
