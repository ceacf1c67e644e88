import type { FunctionRunResult } from "./run-function";

/**
 * The HTTP answer to one function call. Success: 200 with
 * {result, stdout, images: [url], seconds, version}. A call the function
 * itself failed (it raised, timed out, printed too much, killed its kernel):
 * 422 with the usual error body plus `kind`, and what it printed. 422, not
 * 408 or 504: the request was fine and clients must not retry it blindly
 * (many retry 408 on their own).
 */
export function runAnswer(version: number, r: FunctionRunResult): { status: number; body: Record<string, unknown> } {
  const images = r.images.map((i) => i.url);
  if (!r.error) return { status: 200, body: { result: r.result, stdout: r.stdout, images, seconds: r.seconds, version } };
  return {
    status: 422,
    body: {
      error: { code: "unprocessable:function", message: r.error.message, kind: r.error.kind },
      stdout: r.stdout,
      images,
      seconds: r.seconds,
      version,
    },
  };
}
