/**
 * The proof of this browser's identity (lib/server/browser-proof.ts), handed to the page when it
 * creates a chat and kept in this origin's storage, where a page on another port of the host
 * cannot write. Every request of the page sends it, so a cookie another page planted opens
 * nothing for writing.
 */
const KEY = "argus.browserProof";
export const BROWSER_PROOF_HEADER = "x-argus-browser-proof";

export function rememberBrowserProof(proof: unknown): void {
  if (typeof proof !== "string") return;
  try {
    localStorage.setItem(KEY, proof);
  } catch {
    // Storage disabled: the page can still read; writes are refused with a readable message.
  }
}

/** Headers to add to a request of the page (an empty proof when there is none: then a cookie counts for nothing). */
export function browserProofHeaders(): Record<string, string> {
  let proof: string | null = null;
  try {
    proof = localStorage.getItem(KEY);
  } catch {
    proof = null;
  }
  return { [BROWSER_PROOF_HEADER]: proof ?? "" };
}
