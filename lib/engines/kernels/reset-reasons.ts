/**
 * Why a session's notebook was reset, in the words the chat shows ("Your notebook was reset: …").
 */

/** The session's stored kernel is gone from the Jupyter server. */
export const KERNEL_GONE = "its kernel is no longer running on the Jupyter server (it was shut down, or Argus or Jupyter restarted since it was last used)";

/** The session's kernel died; `lost` is the kernel handle's own sentence about why. */
export function kernelStopped(lost: string | null | undefined): string {
  const why = (lost ?? "").replace(/\.$/, "");
  return why ? `its kernel stopped (${why.charAt(0).toLowerCase() + why.slice(1)})` : "its kernel stopped";
}
