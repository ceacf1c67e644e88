import type { FunctionRunResult } from "./run-function";

/** Seconds to two places, as the answer reports them. */
const twoPlaces = (s: number): number => Math.round(s * 100) / 100;

/**
 * The HTTP answer to one function call. Success: 200 with
 * {result, stdout, images: [url], seconds, waited_seconds, version}. `seconds` is the function's
 * own time in the kernel; `waited_seconds` is the rest of the call's time on the server before
 * the answer: waiting for a kernel (a cold start, a free one), loading the function, moving the
 * file in and the pictures out. A first call that took 33 s used to answer `seconds: 0.74` and
 * nothing else (issue #29). A call the function itself failed (it raised, timed out, printed too
 * much, killed its kernel): 422 with the usual error body plus `kind`, and what it printed. 422,
 * not 408 or 504: the request was fine and clients must not retry it blindly (many retry 408 on
 * their own).
 */
export function runAnswer(version: number, r: FunctionRunResult, wallSeconds: number): { status: number; body: Record<string, unknown> } {
  const images = r.images.map((i) => i.url);
  const timing = { seconds: r.seconds, waited_seconds: twoPlaces(Math.max(0, wallSeconds - r.seconds)) };
  if (!r.error) return { status: 200, body: { result: r.result, stdout: r.stdout, images, ...timing, version } };
  return {
    status: 422,
    body: {
      error: { code: "unprocessable:function", message: r.error.message, kind: r.error.kind },
      stdout: r.stdout,
      images,
      ...timing,
      version,
    },
  };
}
