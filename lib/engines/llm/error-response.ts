/**
 * What a model endpoint's error response says beyond its status: how long it asks us to wait,
 * and its own explanation, so the sentence the person reads can quote it.
 */

/** Retry-After (seconds or an HTTP date) and retry-after-ms, as milliseconds from `now`. */
export function retryAfterFromHeaders(
  headers: Record<string, string> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = lower.get("retry-after-ms");
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = lower.get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's own error text, from an OpenAI-style body `{error: {message}}` or plain text. */
export function providerMessage(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === "") return undefined;
  try {
    const json: unknown = JSON.parse(body);
    if (typeof json === "object" && json !== null) {
      const err = (json as { error?: unknown }).error;
      if (typeof err === "string") return err;
      if (typeof err === "object" && err !== null && typeof (err as { message?: unknown }).message === "string") {
        return (err as { message: string }).message;
      }
      const msg = (json as { message?: unknown }).message;
      if (typeof msg === "string") return msg;
    }
  } catch {
    // Not JSON: fall through to the raw text, shortened.
  }
  const text = body.trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
