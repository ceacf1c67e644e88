/**
 * The tab's title while a run waits for the person's answer: a person working in another tab sees
 * "(1) Waiting for you · Argus" in the tab strip, and the plain title comes back once answered.
 */
export function waitingTitle(base: string, waiting: number): string {
  return waiting > 0 ? `(${waiting}) Waiting for you · ${base}` : base;
}

/** The title without a notice of ours in front (what the page had before we marked it). */
export function baseTitle(title: string): string {
  return title.replace(/^\(\d+\) Waiting for you · /, "");
}
