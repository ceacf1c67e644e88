import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { loadConfig, modelStatus } from "./lib/foundation/config";
import { isArgusError } from "./lib/foundation/errors";
import { createArgusCore } from "./lib/server/argus-core";
import { allowedHosts } from "./lib/server/allowed-hosts";
import { refuseUndecodablePath } from "./lib/server/bad-path";
import { trustedProxies } from "./lib/foundation/common/trusted-proxies";
import { stampClientAddress } from "./lib/server/client-address";
import { refuseForeignHost } from "./lib/server/foreign-host";
import { setArgus } from "./lib/server/context";
import { sinceStart } from "./lib/server/start-clock";
import { attachSocketServer } from "./lib/server/socket";

/**
 * One Node process: Next.js (pages and route handlers) and Socket.io on the
 * same HTTP server, plus the jupyter-server that Argus manages.
 */
async function main(): Promise<void> {
  const dev = process.env.NODE_ENV !== "production";
  console.log(`[argus] server code loaded: ${sinceStart()}`);
  const config = loadConfig();
  const core = await createArgusCore(config, { log: (line) => console.log(line) });
  setArgus(core);
  console.log(`[argus] core ready (database, sandbox probes, tool catalogue): ${sinceStart()}`);

  const app = next({ dev, hostname: config.host, port: config.port, dir: process.cwd() });
  const hosts = allowedHosts(config.allowedHosts, config.host);
  const proxies = trustedProxies(config.trustedProxies);
  // Requests arrive only once the server listens, below, after Next is prepared.
  let handle: ReturnType<typeof app.getRequestHandler> | null = null;
  const server = createServer((req, res) => {
    if (refuseForeignHost(req, res, hosts)) return;
    if (refuseUndecodablePath(req, res)) return;
    stampClientAddress(req, proxies);
    void handle!(req, res);
  });
  // Socket.io before core.start(): starting marks the runs the last stop cut off interrupted, and
  // every client, on this instance or (through Redis) another, must hear it without reloading.
  const io = attachSocketServer(server, core, { allowedHosts: hosts });
  const jupyterStarted = core.start().then(
    () => console.log(`[argus] jupyter: ${config.jupyter.mode === "off" ? "off" : "up"}: ${sinceStart()}`),
    (error: unknown) => {
      // Argus still serves sessions and uploads; health says jupyter is down.
      console.error(`[argus] jupyter-server did not start: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  await Promise.all([app.prepare(), jupyterStarted]);
  handle = app.getRequestHandler();

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  console.log(`[argus] listening on http://${config.host}:${port} (${dev ? "development" : "production"}): ${sinceStart()}`);
  if (modelStatus(config) === "not_configured") {
    console.warn("[argus] no model configured: set OPENAI_API_KEY (or OPENAI_BASE_URL) and ARGUS_MODEL — see README.");
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[argus] ${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await core.runs.shutdown();
    await new Promise<void>((resolve) => io.close(() => resolve()));
    server.closeAllConnections();
    await app.close?.().catch(() => undefined);
    await core.close();
    setArgus(undefined);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  // A refusal in Argus's own words (another instance under the same ARGUS_INSTANCE_ID) needs no stack.
  console.error("[argus] failed to start:", isArgusError(error) ? error.message : error);
  process.exit(1);
});
