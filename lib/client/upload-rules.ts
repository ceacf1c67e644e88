/**
 * What the composer accepts before uploading, mirroring the server's checks so
 * that a wrong file is refused at once with a clear message (the server still
 * checks the real bytes and may refuse anyway; that refusal is shown too).
 */
const ACCEPTED_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/heic",
  "image/heif",
  "video/mp4",
  "video/webm",
] as const;

export const ACCEPT_ATTRIBUTE = ACCEPTED_TYPES.join(",");

const EXTENSIONS = /\.(png|jpe?g|webp|gif|heic|heif|mp4|webm)$/i;

export function checkUpload(file: { name: string; type: string; size: number }, maxBytes: number): string | null {
  const typeOk = (ACCEPTED_TYPES as readonly string[]).includes(file.type) || (file.type === "" && EXTENSIONS.test(file.name));
  if (!typeOk) {
    return `${file.name} is not a supported file: use PNG, JPEG, WebP, GIF or HEIC images, or MP4/WebM videos.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > maxBytes) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    return `${file.name} is ${mb(file.size)}; the limit is ${mb(maxBytes)}.`;
  }
  return null;
}
