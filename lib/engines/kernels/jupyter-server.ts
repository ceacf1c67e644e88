import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "./free-port";
import { socketRuntimeDir } from "./socket-runtime-dir";
import { ping } from "./jupyter-ping";
import { hardenedServerArgs } from "./jupyter-server-args";

import type { JupyterStatus } from "@/lib/foundation/protocol/health";

export type { JupyterStatus };

export interface JupyterEndpoint {
  baseUrl: string;
  token: string;
}

export interface JupyterBackend {
  readonly mode: "managed" | "external" | "off";
  start(): Promise<void>;
  endpoint(): JupyterEndpoint | null;
  status(): Promise<JupyterStatus>;
  stop(): Promise<void>;
  /** Called after the server died and came back (every kernel is gone). */
  onRestart?(listener: () => void): void;
}

/** Only what jupyter-server needs: no API keys or server secrets reach kernels through it. */
function scrubbedEnv(extra: Record<string, string>): Record<string, string> {
  const keep = ["PATH", "LANG", "LC_ALL", "TZ"];
  const env: Record<string, string> = {};
  for (const k of keep) {
    const v = process.env[k];
    if (v) env[k] = v;
  }
  return { ...env, ...extra };
}

/** How many ports a start tries when each is taken before jupyter-server can bind it. */
const PORT_ATTEMPTS = 3;
/** jupyter-server's words when its port is in use (it is started with port_retries=0). */
const PORT_TAKEN = /port \d+ is (?:already in use|not available)/i;

class PortTakenError extends Error {
  constructor(readonly port: number) {
    super(`jupyter-server could not listen: port ${port} was taken by another process`);
  }
}

/**
 * A jupyter-server that Argus starts itself on loopback, with a random token
 * and a free port, in its own process group so that stopping it also stops
 * every kernel it started.
 */
export class ManagedJupyterServer implements JupyterBackend {
  readonly mode = "managed" as const;
  private child: ChildProcess | null = null;
  private current: JupyterEndpoint | null = null;
  private starting: Promise<void> | null = null;
  private stopping = false;
  private readonly restartListeners: (() => void)[] = [];
  private restarts = 0;
  /** This launch's runtime dir when the data dir is too deep for socket paths (socket-runtime-dir.ts). */
  private runtime: { dir: string; cleanup: () => void } | null = null;

  constructor(
    private readonly options: {
      python: string;
      rootDir: string;
      /** Jupyter's config and data (the kernelspec): the same for every instance on a data dir. */
      runtimeDir: string;
      /**
       * This server's own files (connection files and ipc sockets, token, HOME), emptied at each
       * launch: `runtimeDir` itself unless instances share the data dir (jupyter-launch-dir.ts).
       */
      launchDir?: string;
      readyTimeoutMs?: number;
      log?: (line: string) => void;
      /** Extra command-line flags, e.g. the kernel transport. */
      extraArgs?: string[];
      /** Picks the port to serve on (a free one by default; tests pass a taken one first). */
      choosePort?: () => Promise<number>;
    },
  ) {}

  onRestart(listener: () => void): void {
    this.restartListeners.push(listener);
  }

  /** How many times the server was brought back after dying. */
  get restartCount(): number {
    return this.restarts;
  }

  /**
   * The server died without being asked to: bring it back, then tell the
   * kernel registry, whose kernels died with it. Backs off if it keeps dying, to a try a
   * minute, and never gives up: one that gave up left its instance without kernels for good.
   */
  private async revive(): Promise<void> {
    if (this.stopping) return;
    this.options.log?.("[argus] jupyter-server exited unexpectedly; restarting it");
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        await this.start();
        this.restarts++;
        for (const listener of this.restartListeners) listener();
        return;
      } catch (error) {
        this.options.log?.(`[argus] jupyter-server restart failed: ${String(error)}`);
        await new Promise((r) => setTimeout(r, Math.min(60_000, 500 * 2 ** attempt)).unref());
      }
    }
  }

  start(): Promise<void> {
    this.starting ??= this.launchOnAFreePort().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /**
   * The port is free when chosen, but on a busy machine another process can take it before
   * jupyter-server binds it (seen in the newcomer walk: Argus then served with no kernels at
   * all). Then it is tried again on another port; any other failure is not.
   */
  private async launchOnAFreePort(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.launch();
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error;
        this.options.log?.(`[argus] jupyter-server's port ${error.port} was taken by another process before it could listen; trying another port`);
      }
    }
  }

  private async launch(): Promise<void> {
    this.stopping = false;
    mkdirSync(this.options.rootDir, { recursive: true });
    // Connection files, sockets and sandbox dirs of a previous server are stale.
    const own = this.options.launchDir ?? this.options.runtimeDir;
    rmSync(path.join(own, "runtime"), { recursive: true, force: true });
    this.runtime?.cleanup();
    this.runtime = socketRuntimeDir(path.join(own, "runtime"));
    mkdirSync(own, { recursive: true });
    const port = await (this.options.choosePort ?? freePort)();
    const token = randomBytes(24).toString("hex");
    // The launcher ties jupyter-server's life to this process (see its docstring).
    const launcher = path.join(process.cwd(), "python", "launch_bound_to_parent.py");
    const args = [
      launcher,
      "-m",
      "jupyter_server",
      "--no-browser",
      "--ServerApp.ip=127.0.0.1",
      `--ServerApp.port=${port}`,
      "--ServerApp.port_retries=0",
      `--ServerApp.root_dir=${this.options.rootDir}`,
      ...hardenedServerArgs(),
      ...(this.options.extraArgs ?? []),
    ];
    if (process.getuid?.() === 0) args.push("--allow-root");
    // The token goes through a file only this user can read: every local user
    // can read every process's command line (/proc/<pid>/cmdline).
    const tokenFile = path.join(own, "token");
    rmSync(tokenFile, { force: true });
    writeFileSync(tokenFile, token, { mode: 0o600, flag: "wx" });
    const home = path.join(own, "home");
    mkdirSync(home, { recursive: true });
    const child = spawn(this.options.python, args, {
      cwd: this.options.rootDir,
      env: scrubbedEnv({
        HOME: home,
        JUPYTER_RUNTIME_DIR: this.runtime.dir,
        JUPYTER_CONFIG_DIR: path.join(this.options.runtimeDir, "config"),
        JUPYTER_DATA_DIR: path.join(this.options.runtimeDir, "data"),
        JUPYTER_TOKEN_FILE: tokenFile,
        PYTHONUNBUFFERED: "1",
        PYTHONPATH: path.join(process.cwd(), "python"),
      }) as unknown as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const log = this.options.log;
    // The end of what it printed, to tell a port taken meanwhile from other failures.
    let tail = "";
    const forward = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4096);
      if (log) for (const line of chunk.toString().split("\n")) if (line.trim()) log(line);
    };
    child.stdout?.on("data", forward);
    child.stderr?.on("data", forward);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // After "exit" its last output may still be in the pipes: "close" comes once they are drained.
    const drained = new Promise<void>((resolve) => child.once("close", () => resolve()));
    child.once("exit", () => {
      if (this.child !== child) return;
      const wasReady = this.current !== null;
      this.child = null;
      this.current = null;
      if (wasReady && !this.stopping) void this.revive();
    });

    const endpoint = { baseUrl: `http://127.0.0.1:${port}`, token };
    const deadline = Date.now() + (this.options.readyTimeoutMs ?? 30_000);
    while (Date.now() < deadline) {
      const outcome = await Promise.race([
        exited.then((code) => ({ exited: code })),
        new Promise<{ exited?: undefined }>((r) => setTimeout(() => r({}), 100)),
      ]);
      if (outcome.exited !== undefined) {
        // Bounded: a process it started could hold the pipes open.
        await Promise.race([drained, new Promise((r) => setTimeout(r, 1000))]);
        if (PORT_TAKEN.test(tail)) throw new PortTakenError(port);
        throw new Error(`jupyter-server exited with code ${outcome.exited} before it was ready (python: ${this.options.python})`);
      }
      if (await ping(endpoint, 1000)) {
        this.current = endpoint;
        return;
      }
    }
    this.killGroup("SIGKILL");
    throw new Error("jupyter-server did not answer within the start timeout");
  }

  endpoint(): JupyterEndpoint | null {
    return this.current;
  }

  async status(): Promise<JupyterStatus> {
    if (this.starting) return "starting";
    if (!this.current) return "down";
    return (await ping(this.current)) ? "up" : "down";
  }

  pid(): number | null {
    return this.child?.pid ?? null;
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    this.killGroup("SIGTERM");
    const timer = setTimeout(() => this.killGroup("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
    // Kernels are in the same process group; make sure none outlives the server.
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // group already empty
    }
    this.child = null;
    this.current = null;
    this.runtime?.cleanup();
    this.runtime = null;
  }
}

/** A Jupyter Server or Kernel/Enterprise Gateway someone else runs (JUPYTER_URL). */
export class ExternalJupyter implements JupyterBackend {
  readonly mode = "external" as const;
  constructor(private readonly ep: JupyterEndpoint) {}
  async start(): Promise<void> {}
  endpoint(): JupyterEndpoint {
    return this.ep;
  }
  async status(): Promise<JupyterStatus> {
    return (await ping(this.ep)) ? "up" : "down";
  }
  async stop(): Promise<void> {}
}

export class NoJupyter implements JupyterBackend {
  readonly mode = "off" as const;
  async start(): Promise<void> {}
  endpoint(): null {
    return null;
  }
  async status(): Promise<JupyterStatus> {
    return "off";
  }
  async stop(): Promise<void> {}
}
