import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * The kernels one Argus instance started on a shared Jupyter, so that the same instance (the same
 * ARGUS_INSTANCE_ID) shuts down what it left behind when it starts again: pooled kernels that no
 * session ever took (~255 MB each), isolated ones it was testing with. Session kernels are not its
 * to stop: the database names them, and the next instance to serve the session reconnects to them.
 * A kernel whose instance never comes back is the Jupyter server's culling's (jupyter-host.ts).
 *
 * One file per instance, one kernel id a line, appended synchronously as each kernel starts (a
 * crash a moment later still finds it). At start the file is first renamed aside, so kernels
 * started meanwhile go to a fresh file and are never taken for left-behind ones; the aside file
 * is removed once every id in it is settled, and kept for the next start if Jupyter did not answer.
 */
export interface ReclaimOptions {
  /** The session whose notebook this kernel is, or null (the database's session_kernels). */
  holder(kernelId: string): Promise<string | null>;
  /** Shuts the kernel down on the server; a kernel already gone counts as done. */
  shutdown(kernelId: string): Promise<void>;
  log?: (line: string) => void;
}

export interface Reclaimed {
  stopped: string[];
  /** Left running: a session's notebook. */
  kept: string[];
}

const ID = /^[A-Za-z0-9-]{1,100}$/;

/** The distinct, well-formed ids in a ledger's text, in the order they were recorded. */
export function ledgerIds(text: string): string[] {
  return [...new Set(text.split("\n").map((l) => l.trim()).filter((l) => ID.test(l)))];
}

export class KernelLedger {
  private readonly aside: string;

  constructor(private readonly file: string) {
    this.aside = `${file}.reclaiming`;
  }

  /** Records a kernel this instance just started. */
  add(kernelId: string): void {
    if (!ID.test(kernelId)) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${kernelId}\n`, { mode: 0o600 });
  }

  /** Shuts down the kernels an earlier run of this instance recorded, except sessions' notebooks. */
  async reclaim(o: ReclaimOptions): Promise<Reclaimed> {
    // Renamed first (atomic): a kernel started from now on is recorded in a fresh file.
    const moving = `${this.aside}.new`;
    if (existsSync(this.file)) renameSync(this.file, moving);
    if (existsSync(moving)) {
      // A previous start that could not finish left its aside file: those ids come along.
      appendFileSync(this.aside, readFileSync(moving, "utf8"), { mode: 0o600 });
      rmSync(moving);
    }
    const ids = existsSync(this.aside) ? ledgerIds(readFileSync(this.aside, "utf8")) : [];
    const result: Reclaimed = { stopped: [], kept: [] };
    for (const id of ids) {
      if ((await o.holder(id)) !== null) result.kept.push(id);
      else {
        await o.shutdown(id);
        result.stopped.push(id);
      }
    }
    rmSync(this.aside, { force: true });
    if (ids.length > 0) {
      o.log?.(`[kernels] reclaimed what this instance left on the Jupyter server: ${result.stopped.length} kernel(s) shut down, ${result.kept.length} session notebook(s) left running`);
    }
    return result;
  }

  /** For the tests: the ids recorded since the last reclaim. */
  recorded(): string[] {
    return existsSync(this.file) ? ledgerIds(readFileSync(this.file, "utf8")) : [];
  }

  /** `<data dir>/kernels/<instance id>.ids`: the aside files live beside it (renames stay in one directory). */
  static forInstance(dataDir: string, instanceId: string): KernelLedger {
    return new KernelLedger(path.join(dataDir, "kernels", `${instanceId}.ids`));
  }
}
