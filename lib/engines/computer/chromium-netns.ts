/**
 * Chromium's own network namespace: the boundary that makes the egress proxy
 * the browser's only way out, for every protocol. Flags such as
 * --force-webrtc-ip-handling-policy only ask Chromium to behave; a page's
 * WebRTC still sent STUN and TURN packets to this machine's loopback with
 * them. In a namespace of its own, Chromium has a loopback of its own and no
 * other interface: UDP, QUIC and whatever a page invents have nowhere to go.
 *
 * The egress proxies listen on Unix sockets in a private directory; inside
 * the namespace a relay (netns-relay.ts) listens on 127.0.0.1 and forwards to
 * those sockets, and to nothing else. One ChromiumNetns serves one launch.
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { findOnPath } from "@/lib/engines/kernels/isolation";
import { browserUnavailable } from "./errors";
import { LAUNCH_PROXY_PORT, LAUNCHER_SCRIPT, RELAY_SCRIPT } from "./netns-relay";

const READY_TIMEOUT_MS = 20_000;
const OPEN_TIMEOUT_MS = 10_000;

/** What the relay says, one JSON object a line. */
const RelayMessage = z.union([
  z.object({ ready: z.literal(true) }),
  z.object({ opened: z.string(), port: z.number().int().min(1).max(65535) }),
  z.object({ failed: z.string(), error: z.string() }),
]);

/** A promise with its settle functions; a rejection nobody awaits is not reported. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function bwrapPath(searchPath = process.env.PATH ?? "/usr/bin:/bin"): string | null {
  return findOnPath("bwrap", searchPath);
}

/**
 * Why Chromium cannot be given a network namespace here, in words; null when it can.
 * Runs bubblewrap once with the launcher's namespace options (a few milliseconds).
 */
export function netnsUnavailable(searchPath?: string): string | null {
  const bwrap = bwrapPath(searchPath);
  if (!bwrap) return "bubblewrap (bwrap) is not installed, and the browser runs only inside a network namespace of its own (install the bubblewrap package)";
  const run = spawnSync(bwrap, ["--dev-bind", "/", "/", "--unshare-net", "--unshare-pid", "--proc", "/proc", "--die-with-parent", "--", "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 5_000,
  });
  if (run.status === 0) return null;
  const detail = run.error?.message ?? run.stderr?.toString().trim().split("\n")[0] ?? `exit ${run.status}`;
  return `bubblewrap cannot make a network namespace here (${detail}), and the browser runs only inside one`;
}

/** bubblewraps that have made a namespace in this process. */
const verified = new Set<string>();

export class ChromiumNetns {
  private relay: net.Socket | null = null;
  private readonly waiting = new Map<string, { resolve: (port: number) => void; reject: (error: Error) => void }>();
  private readonly relayReady = deferred();
  private opened = 0;
  /** The relay's id for each port it forwards. */
  private readonly ports = new Map<number, string>();
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly bwrap: string,
    private readonly control: net.Server,
  ) {}

  /** A private directory with the launcher, the relay and the control socket the relay will call. */
  static async prepare(searchPath?: string): Promise<ChromiumNetns> {
    const bwrap = bwrapPath(searchPath);
    // The smoke run blocks the event loop for a moment: once per bubblewrap is enough.
    const off = bwrap && verified.has(bwrap) ? null : netnsUnavailable(searchPath);
    if (bwrap && !off) verified.add(bwrap);
    if (!bwrap || off) throw browserUnavailable(`The browser cannot start: ${off ?? "bubblewrap is missing"}.`);
    const dir = await mkdtemp(path.join(os.tmpdir(), "argus-chromium-netns-"));
    await chmod(dir, 0o700);
    await writeFile(path.join(dir, "launch-chromium.sh"), LAUNCHER_SCRIPT, { mode: 0o700 });
    await writeFile(path.join(dir, "relay.js"), RELAY_SCRIPT, { mode: 0o600 });
    const control = net.createServer();
    await new Promise<void>((resolve, reject) => {
      control.once("error", reject);
      control.listen(path.join(dir, "control.sock"), () => resolve());
    });
    const netns = new ChromiumNetns(dir, bwrap, control);
    control.on("connection", (socket) => netns.accept(socket));
    return netns;
  }

  /** A path for an egress proxy's Unix socket. */
  socketPath(name: string): string {
    return path.join(this.dir, `${name}.sock`);
  }

  /** What Playwright launches instead of Chromium, and the launch-wide proxy's URL inside the namespace. */
  launchOptions(chromiumPath: string, launchProxySocket: string): { executablePath: string; env: Record<string, string>; proxyServer: string } {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    Object.assign(env, {
      ARGUS_NETNS_BWRAP: this.bwrap,
      ARGUS_NETNS_DIR: this.dir,
      ARGUS_NETNS_CHROMIUM: chromiumPath,
      ARGUS_NETNS_NODE: process.execPath,
      ARGUS_NETNS_LAUNCH: `${LAUNCH_PROXY_PORT}=${launchProxySocket}`,
    });
    return { executablePath: path.join(this.dir, "launch-chromium.sh"), env, proxyServer: `http://127.0.0.1:${LAUNCH_PROXY_PORT}` };
  }

  /** Resolves once the relay inside the namespace listens; rejects if it does not come. */
  async ready(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(browserUnavailable("The browser's network namespace did not come up (its relay never called).")), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.relayReady.promise, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Has the relay forward a new port of the namespace's loopback to `socketPath`; resolves to that port. */
  open(socketPath: string): Promise<number> {
    const relay = this.relay;
    if (!relay || relay.destroyed) return Promise.reject(browserUnavailable("The browser's network relay has stopped."));
    const id = `p${++this.opened}`;
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => settle(() => reject(browserUnavailable("The browser's network relay did not answer."))), OPEN_TIMEOUT_MS);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        fn();
      };
      this.waiting.set(id, { resolve: (port) => settle(() => resolve(port)), reject: (error) => settle(() => reject(error)) });
      relay.write(`${JSON.stringify({ open: id, socket: socketPath })}\n`);
    }).then((port) => {
      this.ports.set(port, id);
      return port;
    });
  }

  /** Stops forwarding a port opened with `open`. */
  release(port: number): void {
    const id = this.ports.get(port);
    this.ports.delete(port);
    if (id && this.relay && !this.relay.destroyed) this.relay.write(`${JSON.stringify({ close: id })}\n`);
  }

  /** Ends the relay (it exits when its control connection closes) and removes the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.relay?.destroy();
    this.failAll(browserUnavailable("The browser was closed."));
    await new Promise<void>((resolve) => this.control.close(() => resolve()));
    await rm(this.dir, { recursive: true, force: true });
  }

  private failAll(error: Error): void {
    this.relayReady.reject(error);
    for (const waiter of [...this.waiting.values()]) waiter.reject(error);
  }

  /** The first caller is the relay; there is one per launch, so any later caller is refused. */
  private accept(socket: net.Socket): void {
    if (this.relay || this.closed) {
      socket.destroy();
      return;
    }
    this.relay = socket;
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.failAll(browserUnavailable("The browser's network relay has stopped.")));
    let buffered = "";
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        this.heard(line);
      }
    });
  }

  private heard(line: string): void {
    let parsed: z.infer<typeof RelayMessage>;
    try {
      parsed = RelayMessage.parse(JSON.parse(line));
    } catch {
      return;
    }
    if ("ready" in parsed) this.relayReady.resolve();
    else if ("opened" in parsed) this.waiting.get(parsed.opened)?.resolve(parsed.port);
    else if (parsed.failed === "start") this.failAll(browserUnavailable(`The browser's network relay could not start: ${parsed.error}`));
    else this.waiting.get(parsed.failed)?.reject(browserUnavailable(`The browser's network relay could not open a port: ${parsed.error}`));
  }
}
