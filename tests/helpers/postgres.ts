/**
 * A throwaway PostgreSQL server for tests, from Debian's `postgresql` package
 * (scripts/setup.sh --test installs it): initdb into a temporary directory,
 * `postgres` on a free loopback port with its unix socket in that directory,
 * stopped and removed afterwards. Postgres refuses to run as root, so under
 * uid 0 (CI) every command runs as the `postgres` system user (setpriv), and
 * the directory is handed to that user.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** The directory holding the cluster and the unix socket. */
  dir: string;
  port: number;
  /** A URL for database `name` (a superuser `argus`, trusted on loopback). */
  url(name: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server, keeping its data (start() brings it back on the same port). */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "postgres"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("PostgreSQL is not installed: run `bash scripts/setup.sh --test` (Debian's postgresql package).");
  return path.join(root, newest, "bin");
}

/** Runs as the `postgres` user when we are root (Postgres will not run as root). */
function asServerUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ["setpriv", ["--reuid=postgres", "--regid=postgres", "--clear-groups", "--", command, ...args]];
}

function postgresIds(): { uid: number; gid: number } {
  const read = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: read("-u"), gid: read("-g") };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function untilAccepting(url: string, proc: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`postgres exited before accepting connections:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), "argus-pg-"));
  const data = path.join(dir, "data");
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const [initCmd, initArgs] = asServerUser(path.join(bin, "initdb"), ["-D", data, "-U", "argus", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  const init = spawnSync(initCmd, initArgs, { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);

  let port = await freePort();
  const url = (name: string) => `postgres://argus@127.0.0.1:${port}/${name}`;
  let proc: ChildProcess | null = null;
  let log = "";

  const start = async () => {
    // Durability settings off: a test cluster is thrown away, and this saves
    // most of the fsync cost on a loaded CI machine.
    const [cmd, args] = asServerUser(path.join(bin, "postgres"), [
      "-D", data, "-k", dir, "-p", String(port),
      "-c", "listen_addresses=127.0.0.1",
      "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
      "-c", "max_connections=300",
    ]);
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (c: Buffer) => (log += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
    proc = child;
    await untilAccepting(url("postgres"), child, () => log);
  };

  const halt = async () => {
    const child = proc;
    proc = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // SIGINT: "fast shutdown", open connections are cut (what a crash looks like to Argus).
    child.kill("SIGINT");
    await exited;
  };

  // The free port was only free when asked: with kernels and servers starting all around (npm test
  // runs five streams at once), another process can bind it first. Then Postgres says so and
  // exits: take another port (the first start only; a restart keeps its port, as a real one does).
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 5 || !/could not bind|already in use/i.test(log)) throw error;
      log = "";
      port = await freePort();
    }
  }
  return {
    dir,
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    halt,
    start,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
