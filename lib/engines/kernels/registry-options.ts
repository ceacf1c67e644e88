import type { Execution } from "@/lib/foundation/protocol/contexts";
import type { WaitWire } from "@/lib/foundation/protocol/waits";
import type { KeyedMutex } from "@/lib/foundation/common/keyed-mutex";
import type { KernelLedger } from "./kernel-ledger";
import type { KernelPoolOptions } from "./kernel-pool";

/** What the kernel registry (registry.ts) is made with: its limits, stores and listeners. */

export interface RecordedCell {
  kernelId: string;
  code: string;
  execution: Execution;
  executionCount: number | null;
}

/** Where the id of each session's kernel is kept, so another instance (or this one restarted) finds it. */
export interface SessionKernelIds {
  get(sessionId: string): Promise<string | null>;
  set(sessionId: string, kernelId: string): Promise<void>;
  clear(sessionId: string, kernelId: string): Promise<void>;
  /** The session whose notebook this kernel is, if any. */
  holder(kernelId: string): Promise<string | null>;
}

/** A file the person uploaded, to be copied into the kernel's workspace (transport `kernel`). */
export interface SessionUpload {
  name: string;
  sha256: string;
  bytes(): Promise<Uint8Array>;
}

export interface RegistryOptions extends Omit<KernelPoolOptions, "sessionKernels" | "makeRoom"> {
  idleMs: number;
  /** At the cap, a session kernel idle this long gives its place to another session (idle-sessions.ts); 120 s if unset. */
  yieldIdleMs?: number;
  cellTimeoutMs: number;
  /** Disk a session's workspace may hold, checked after each cell (see workspace-quota.ts). */
  workspaceMaxBytes?: number;
  locks: KeyedMutex;
  /** Tells the chat something about the session's notebook (reset, restart). */
  onNotice?: (sessionId: string, text: string) => void;
  /** What a session's request for a kernel waits for, when it waits (a cold start, the cap). */
  onWait?: (sessionId: string, wait: WaitWire) => void;
  /** Every cell run in a session's kernel, for the notebook export. */
  onCell?: (sessionId: string, cell: RecordedCell) => void | Promise<void>;
  /** The database's record of session kernels; without it a kernel is found only in this process. */
  kernelIds?: SessionKernelIds;
  /**
   * On close, leave session kernels running on the server (only disconnect): with a shared
   * Jupyter another instance, or this one restarted, picks them up from `kernelIds`.
   */
  keepSessionKernelsOnClose?: boolean;
  /** With a shared Jupyter: the kernels this instance starts, reclaimed when it starts again. */
  ledger?: KernelLedger;
  /** The session's uploads (transport `kernel`: they reach the kernel host through the kernel). */
  uploads?: (sessionId: string) => Promise<SessionUpload[]>;
}
