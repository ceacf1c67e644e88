/** A network failure in words: what a person would look into first (the doctor's probes share it). */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return "the host name does not resolve";
  if ((error as { name?: string }).name === "TimeoutError") return "no answer in time";
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
