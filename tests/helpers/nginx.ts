import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/engines/kernels/free-port";
import { nginxConfForTest } from "./nginx-conf";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NGINX = "/usr/sbin/nginx";

export interface RunningNginx {
  /** `http://127.0.0.1:<port>`: the load balancer's address, never port 80. */
  url: string;
  port: number;
  /** The conf nginx runs: deploy/nginx.conf with only ports, upstreams and scratch paths changed. */
  conf: string;
  output(): string;
  stop(): Promise<void>;
}

/** Whether Debian's nginx is installed (`bash scripts/setup.sh --test` installs nginx-light). */
export function haveNginx(): boolean {
  return spawnSync(NGINX, ["-v"], { stdio: "ignore" }).status === 0;
}

/**
 * Debian's nginx running deploy/nginx.conf itself (or `confText`, for the test that checks an
 * older file fails) in front of `upstreams`, as the current user in a scratch directory, on a
 * free loopback port. In the foreground (`daemon off`), so stop() ends it by its own pid.
 */
export async function startNginx(upstreams: string[], confText = readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8")): Promise<RunningNginx> {
  const prefix = mkdtempSync(path.join(os.tmpdir(), "argus-nginx-"));
  // When the tests run as root, nginx's workers run as nobody and must reach the temp files.
  chmodSync(prefix, 0o755);
  const port = await freePort();
  const conf = nginxConfForTest(confText, { port, upstreams, prefix });
  const confFile = path.join(prefix, "nginx.conf");
  writeFileSync(confFile, conf);
  let log = "";
  const child = spawn(NGINX, ["-p", prefix, "-c", confFile, "-e", "stderr", "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr.on("data", (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const cleanup = () => rmSync(prefix, { recursive: true, force: true });
  // Ready when its port accepts a connection; an nginx that refuses the conf exits instead.
  let alive = true;
  void exited.then(() => (alive = false));
  for (;;) {
    if (!alive) {
      cleanup();
      throw new Error(`nginx exited before it listened:\n${log}`);
    }
    if (await accepts(port)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    conf,
    output: () => log,
    stop: async () => {
      if (alive) child.kill("SIGTERM");
      await exited;
      cleanup();
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
