import { KernelMessage, type Kernel } from "@jupyterlab/services";
import type { Execution } from "@/lib/foundation/protocol/contexts";
import { readWorkspaceFile } from "@/lib/engines/files/workspace-fs";
import { answerBridge, isBridgePrompt, type AskPerson, type BridgeMethods } from "./bridge";
import { BridgeFileRequests } from "./bridge-file-requests";
import { BridgeMeter } from "./bridge-meter";
import { CellClock } from "./cell-clock";
import { resolvePictureRefs } from "./picture-ref-files";
import { ExecutionCollector, type CollectorLimits, DEFAULT_COLLECTOR_LIMITS } from "./execution-collector";
import { KernelFiles, silentTransfer } from "./kernel-files";

/** How long one silent transfer step (a 512 KiB chunk, a hash of a large file) may take. */
const TRANSFER_STEP_TIMEOUT_MS = 60_000;

export interface ExecuteOptions {
  /** Aborting interrupts the cell (cancel). */
  signal?: AbortSignal;
  /** Wall-clock limit for this cell; on expiry the kernel is interrupted. */
  timeoutMs: number;
  /** Stream output as it arrives, for live display. */
  onStream?: (name: "stdout" | "stderr", text: string) => void;
  /** Each display output's mime bundle as it arrives (a batch chunk reports each item's outcome as one). */
  onDisplay?: (data: Record<string, unknown>) => void;
  /** Meters the cell's bridge calls (count, and the run's budgets); a default per-cell count when absent. */
  bridgeMeter?: BridgeMeter;
  /** Lets bridge methods ask the person (tool review); absent outside a run. */
  ask?: AskPerson;
}

export interface ExecutionOutcome {
  execution: Execution;
  executionCount: number | null;
  /** Why the kernel can no longer be used, when the cell killed or wedged it. */
  kernelLost: string | null;
}

const DEAD_STATES = new Set<string>(["dead", "restarting", "autorestarting"]);

/**
 * One live kernel: runs cells one at a time and turns each into an Execution.
 * A cell that outlives its timeout (or is cancelled) is interrupted; if the
 * interrupt does not stop it within `interruptGraceMs`, the kernel is given up
 * and the registry replaces it. A kernel that dies mid-cell yields a readable
 * error instead of a hang.
 */
export class KernelHandle {
  lastUsed = Date.now();
  private lostReason: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private busy = false;
  private onLost: (() => void) | null = null;
  /**
   * The workspace through the kernel (ARGUS_WORKSPACE_TRANSPORT=kernel): null when the kernel's
   * workspace is `workspace` on this machine's disk.
   */
  readonly files: KernelFiles | null;

  constructor(
    readonly connection: Kernel.IKernelConnection,
    /** Host path of the directory the kernel sees as /workspace (never read when `files` is set). */
    public workspace: string,
    private readonly options: {
      bridge: BridgeMethods;
      interruptGraceMs: number;
      collectorLimits?: CollectorLimits;
      /** Told when a cell starts (true) and ends (false): the pool holds its refills meanwhile. */
      onCellRunning?: (running: boolean) => void;
      /** The kernel host does not share Argus's disk: files travel through the kernel. */
      remote?: boolean;
    },
  ) {
    this.files = options.remote ? new KernelFiles(silentTransfer((code, metadata) => this.runSilent(code, TRANSFER_STEP_TIMEOUT_MS, metadata), { chunksInMetadata: true })) : null;
    // services reconnects after a server-side auto-restart from a floating
    // promise (`void ...then(() => this.reconnect())`); when we dispose the dead
    // connection that promise rejects with nobody listening, and an unhandled
    // rejection would take the whole server down. The failure is already seen
    // here as the `disconnected` status, so the rejection carries nothing new.
    const reconnect = connection.reconnect.bind(connection);
    connection.reconnect = () => reconnect().catch(() => undefined);
    connection.statusChanged.connect((_, status) => {
      if (DEAD_STATES.has(status)) this.markLost("The kernel died (it may have run out of memory, hit its CPU limit or exited)");
    });
    connection.connectionStatusChanged.connect((_, status) => {
      if (status === "disconnected") this.markLost("The connection to the kernel was lost");
    });
  }

  get id(): string {
    return this.connection.id;
  }

  get lost(): string | null {
    return this.lostReason;
  }

  get isBusy(): boolean {
    return this.busy;
  }

  markLost(reason: string): void {
    if (this.lostReason) return;
    this.lostReason = reason;
    this.onLost?.();
  }

  /**
   * Resolves once the kernel has answered kernel_info. Rejects as soon as it
   * dies or its connection drops first: a kernel that cannot start (its
   * launcher failed, the disk is full) must not keep a run waiting while the
   * server's restarter tries again and again.
   */
  ready(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.lostReason) return reject(new Error(`${this.lostReason} while starting.`));
      this.onLost = () => reject(new Error(`${this.lostReason} while starting.`));
      this.connection.info.then(() => resolve(), reject).finally(() => {
        this.onLost = null;
      });
    });
  }

  execute(code: string, options: ExecuteOptions): Promise<ExecutionOutcome> {
    const run = this.queue.then(() => this.run(code, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(code: string, options: ExecuteOptions): Promise<ExecutionOutcome> {
    const collector = new ExecutionCollector(this.options.collectorLimits ?? DEFAULT_COLLECTOR_LIMITS);
    if (this.lostReason) {
      collector.fail("KernelDied", `${this.lostReason}.`);
      return { execution: collector.result(), executionCount: null, kernelLost: this.lostReason };
    }
    if (options.signal?.aborted) {
      // Never send a cell that was cancelled while it waited: an interrupt could
      // reach the kernel before the cell starts and be lost.
      collector.fail("Cancelled", "The run was cancelled before this cell started.");
      return { execution: collector.result(), executionCount: null, kernelLost: null };
    }
    this.busy = true;
    this.options.onCellRunning?.(true);
    this.lastUsed = Date.now();
    const bridgeAbort = new AbortController();
    // stop_on_error would make ipykernel skip ("abort") every execute request
    // arriving soon after an error reply; Argus already runs one cell at a
    // time, so there is never a queue to protect, only a next cell to lose.
    const future = this.connection.requestExecute({ code, stop_on_error: false, allow_stdin: true, store_history: true });
    future.onIOPub = (msg) => {
      collector.push(msg as unknown as Parameters<ExecutionCollector["push"]>[0]);
      if (KernelMessage.isStreamMsg(msg)) options.onStream?.(msg.content.name, msg.content.text);
      else if (KernelMessage.isDisplayDataMsg(msg)) options.onDisplay?.(msg.content.data as Record<string, unknown>);
    };
    type Ending = { kind: "done" } | { kind: "lost" } | { kind: "stop"; why: "timeout" | "cancel" };
    let fireTimeout: (() => void) | null = null;
    // The per-cell timeout (cell-clock.ts): held only while the person is asked.
    const clock = new CellClock(options.timeoutMs, () => fireTimeout?.());
    const holdClock = <T>(work: Promise<T>): Promise<T> => clock.hold(work);
    const meter = options.bridgeMeter ?? new BridgeMeter();
    /** Bridge calls waiting for the kernel's answer to a file request (transport `kernel`). */
    const fileRequests = new BridgeFileRequests(
      (value, header) => this.connection.sendInputReply({ status: "ok", value }, header as never),
      () => !this.lostReason && !future.isDisposed,
      bridgeAbort.signal,
    );
    future.onStdin = (msg) => {
      if (!KernelMessage.isInputRequestMsg(msg)) return;
      const prompt = msg.content.prompt;
      if (!isBridgePrompt(prompt)) {
        // Nobody is at a keyboard: answer end-of-input at once (ipykernel turns
        // "\x04" into EOFError) so input() cannot hang the cell.
        collector.push({ header: { msg_type: "stream" }, content: { name: "stderr", text: "input() is not available in Argus kernels (there is no keyboard); it raised EOFError.\n" } });
        this.connection.sendInputReply({ status: "ok", value: "\u0004" }, msg.header as never);
        return;
      }
      // The kernel answering a file request made in the middle of a bridge call (transport `kernel`).
      if (fileRequests.route(prompt, msg.header)) return;
      const exchange = fileRequests.forCall(prompt, msg.header);
      const readFile = this.files
        ? (relative: string, maxBytes: number) => new KernelFiles(exchange.transfer).pull(relative, maxBytes)
        : (relative: string, maxBytes: number) => readWorkspaceFile(this.workspace, relative, { maxBytes });
      void answerBridge(prompt, this.options.bridge, { workspace: this.workspace, signal: bridgeAbort.signal, holdClock, ask: options.ask, readFile }, meter).then((value) => {
        if (!this.lostReason && !future.isDisposed) this.connection.sendInputReply({ status: "ok", value }, exchange.replyTo() as never);
      });
    };

    let onAbort: (() => void) | undefined;
    const lost = new Promise<Ending>((resolve) => {
      this.onLost = () => resolve({ kind: "lost" });
      if (this.lostReason) resolve({ kind: "lost" });
    });
    const stopped = new Promise<Ending>((resolve) => {
      fireTimeout = () => resolve({ kind: "stop", why: "timeout" });
      clock.start();
      onAbort = () => resolve({ kind: "stop", why: "cancel" });
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
    });
    const done = future.done.then(
      (reply): Ending => {
        // A skipped cell must never look like one that ran and printed nothing.
        if (reply?.content.status === "aborted") collector.fail("Aborted", "The kernel skipped this cell without running it. Run it again.");
        return { kind: "done" };
      },
      (): Ending => ({ kind: "lost" }),
    );

    try {
      let ending = await Promise.race([done, lost, stopped]);
      if (ending.kind === "stop") {
        await this.connection.interrupt().catch(() => undefined);
        const grace = new Promise<Ending>((r) => setTimeout(() => r({ kind: "lost" }), this.options.interruptGraceMs));
        const afterInterrupt = await Promise.race([done, lost, grace]);
        if (afterInterrupt.kind !== "done") {
          this.markLost("The kernel did not stop when interrupted, so it was shut down");
        }
        const seconds = Math.round(options.timeoutMs / 100) / 10;
        if (ending.why === "timeout") {
          collector.fail(
            "TimeoutError",
            `The cell ran longer than ${seconds} s and was stopped.` +
              (this.lostReason ? " The kernel had to be restarted, so earlier variables are gone." : " Variables defined before it are still there."),
          );
        } else {
          collector.fail("Cancelled", "The run was cancelled while this cell was running." + (this.lostReason ? " The kernel had to be restarted." : ""));
        }
        ending = afterInterrupt;
      }
      if (ending.kind === "lost" && this.lostReason && collector.result().error?.name !== "TimeoutError" && collector.result().error?.name !== "Cancelled") {
        collector.fail("KernelDied", `${this.lostReason} while running this cell. A new kernel will be started; earlier variables are gone.`);
      }
      // Big pictures came as files in the workspace: read them back (safely) before anyone sees the cell.
      const execution = await resolvePictureRefs(this.workspace, collector.result());
      return { execution, executionCount: collector.executionCount, kernelLost: this.lostReason };
    } finally {
      clock.stop();
      if (onAbort) options.signal?.removeEventListener("abort", onAbort);
      bridgeAbort.abort();
      this.onLost = null;
      this.busy = false;
      this.options.onCellRunning?.(false);
      this.lastUsed = Date.now();
      if (!future.isDisposed) future.dispose();
    }
  }

  /**
   * Runs server-side housekeeping code (workspace transfer, kernel-files.ts) between cells: silent,
   * so it takes no execution count, is kept out of history and is never recorded in the notebook.
   * Waits its turn behind cells like any other request.
   */
  runSilent(code: string, timeoutMs: number, metadata?: Record<string, string>): Promise<{ stdout: string; error: string | null }> {
    const run = this.queue.then(async () => {
      if (this.lostReason) throw new Error(`${this.lostReason}.`);
      const future = this.connection.requestExecute({ code, silent: true, store_history: false, allow_stdin: false, stop_on_error: false }, true, metadata);
      let stdout = "";
      let error: string | null = null;
      future.onIOPub = (msg) => {
        if (KernelMessage.isStreamMsg(msg) && msg.content.name === "stdout") stdout += msg.content.text;
        if (KernelMessage.isErrorMsg(msg)) error = `${msg.content.ename}: ${msg.content.evalue}`;
      };
      let timer: NodeJS.Timeout | undefined;
      try {
        const timedOut = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
        const lost = new Promise<"lost">((r) => {
          this.onLost = () => r("lost");
        });
        const outcome = await Promise.race([future.done.then(() => "done" as const), timedOut, lost]);
        if (outcome === "timeout") {
          await this.connection.interrupt().catch(() => undefined);
          throw new Error(`the kernel did not finish a file transfer step within ${Math.round(timeoutMs / 1000)} s`);
        }
        if (outcome === "lost") throw new Error(`${this.lostReason ?? "The kernel was lost"}.`);
        return { stdout, error };
      } finally {
        clearTimeout(timer);
        this.onLost = null;
        if (!future.isDisposed) future.dispose();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Lets go of the kernel without stopping it: it stays on the server for whoever reconnects. */
  detach(): void {
    this.markLost("Argus disconnected from the kernel");
    if (!this.connection.isDisposed) this.connection.dispose();
  }

  async shutdown(): Promise<void> {
    this.markLost("The kernel was shut down");
    try {
      if (!this.connection.isDisposed) await this.connection.shutdown();
    } catch {
      // already gone on the server
    } finally {
      if (!this.connection.isDisposed) this.connection.dispose();
    }
  }
}
