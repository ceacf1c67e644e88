/**
 * Which session kernels may be shut down to make room: the ones idle long enough, longest idle
 * first. Pure, so the choice is tested without kernels (idle-sessions.test.ts).
 */

export interface SessionKernelUse {
  sessionId: string;
  /** When Argus last ran a cell in it or handed it out. */
  lastUsed: number;
  busy: boolean;
}

/** Session kernels idle at least `minIdleMs` at `now`, the longest idle first. */
export function idleLongestFirst(uses: SessionKernelUse[], now: number, minIdleMs: number): string[] {
  return uses
    .filter((u) => !u.busy && now - u.lastUsed >= minIdleMs)
    .sort((a, b) => a.lastUsed - b.lastUsed)
    .map((u) => u.sessionId);
}

/** The reset reason the chat shows for a notebook shut down to let another session start one. */
export function evictedForRoom(maxKernels: number): string {
  return `Argus needed its place for another chat's notebook (at most ${maxKernels} run at once) and it was the one idle longest`;
}
