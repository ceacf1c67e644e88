/** The lock key that guards a session's workspace directory (uploads vs. a kernel adopting it). */
export const workspaceLock = (sessionId: string) => `workspace:${sessionId}`;
