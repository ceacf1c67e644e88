import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/engines/kernels/free-port";
import { ManagedJupyterServer } from "@/lib/engines/kernels/jupyter-server";

/**
 * The newcomer walk (docs/newcomer-walk.md) met this on a busy machine: the port Argus chose for
 * its jupyter-server was free when chosen and taken by another process before jupyter-server bound
 * it, so jupyter-server exited and Argus served with no kernels. Now the start tries another port.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), "argus-jupyter-port-"));
// Another process's web server holds the port (it answers, but is not a jupyter-server).
const taken = http.createServer((_req, res) => res.writeHead(404).end());
let server: ManagedJupyterServer | null = null;
afterAll(async () => {
  await server?.stop();
  taken.closeAllConnections();
  await new Promise((r) => taken.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe("a jupyter-server whose chosen port is taken before it binds it", () => {
  it("starts on another port, and says so", { timeout: 120_000 }, async () => {
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const takenPort = (taken.address() as AddressInfo).port;
    const chosen: number[] = [];
    const log: string[] = [];
    server = new ManagedJupyterServer({
      python: "/usr/bin/python3",
      rootDir: path.join(dir, "root"),
      runtimeDir: path.join(dir, "runtime"),
      log: (line) => log.push(line),
      // The first choice is the port another process holds (as if it took it meanwhile).
      choosePort: async () => {
        const port = chosen.length === 0 ? takenPort : await freePort();
        chosen.push(port);
        return port;
      },
    });
    await server.start();
    expect(chosen).toHaveLength(2);
    expect(server.endpoint()?.baseUrl).toBe(`http://127.0.0.1:${chosen[1]}`);
    expect(await server.status()).toBe("up");
    expect(log.join("\n")).toContain(`port ${takenPort} was taken by another process before it could listen; trying another port`);
  });
});
