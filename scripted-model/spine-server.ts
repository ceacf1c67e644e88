import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ArgusConfig } from "@/lib/foundation/config";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { allowedHosts } from "@/lib/server/allowed-hosts";
import { attachSocketServer, type ArgusIo } from "@/lib/server/socket";

export interface SpineServer {
  core: ArgusCore;
  http: Server;
  io: ArgusIo;
  url: string;
  close(): Promise<void>;
}

/**
 * The event spine (SQLite log + Socket.io) on a loopback HTTP server, without
 * Next: what the socket tests and the fan-out benchmark drive directly, so
 * they measure Argus's own path and nothing else.
 */
export async function startSpineServer(config: ArgusConfig): Promise<SpineServer> {
  const core = await createArgusCore(config);
  const http = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const io = attachSocketServer(http, core, { allowedHosts: allowedHosts(config.allowedHosts, "127.0.0.1") });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const { port } = http.address() as AddressInfo;
  return {
    core,
    http,
    io,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await core.close();
    },
  };
}
