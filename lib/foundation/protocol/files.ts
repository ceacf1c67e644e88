/** Files as the browser and API clients see them: URLs, never host paths or blobs. */

export type FileKind = "image" | "video" | "other";

/** An upload as `POST /uploads` and `GET /uploads` answer it. */
export interface UploadView {
  id: string;
  name: string;
  kind: FileKind;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  durationSec: number | null;
  url: string;
  thumbnailUrl: string | null;
}

/** Where a stored file (upload or generated image) is served. */
export const fileUrl = (id: string) => `/api/files/${id}`;
