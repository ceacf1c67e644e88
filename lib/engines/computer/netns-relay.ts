/**
 * The two small programs that run inside Chromium's network namespace
 * (chromium-netns.ts), kept as text because they are written to a private
 * directory at launch and run there, whatever way the server itself was
 * bundled.
 *
 * The launcher is what Playwright starts as "chromium": it asks bubblewrap
 * for a new network namespace (only a loopback of its own, no route anywhere)
 * and a new PID namespace (so nothing started inside outlives the browser),
 * starts the relay there, then becomes Chromium. The CDP pipe Playwright
 * drives Chromium through is file descriptors 3 and 4, which pass through;
 * the relay is started with them closed, so a dead Chromium closes the pipe.
 *
 * The relay listens on the namespace's 127.0.0.1 and forwards each
 * connection to one Unix socket: an egress proxy of Argus's, outside. It
 * takes its orders (open a port for this socket, close it) as JSON lines over
 * a control socket Argus serves, and exits when that connection ends.
 */

/** The port the launch-wide proxy gets inside the namespace, which is empty, so any port is free. */
export const LAUNCH_PROXY_PORT = 3128;

export const LAUNCHER_SCRIPT = `#!/bin/sh
# Argus's browser launcher: Chromium in a network namespace of its own. See lib/engines/computer/netns-relay.ts.
# Without CAP_SYS_NICE: as root, Chromium raises its browser and GPU processes to nice -8, ahead of
# the Argus server and the kernels.
exec "$ARGUS_NETNS_BWRAP" --dev-bind / / --tmpfs /run --unshare-net --unshare-pid --proc /proc --die-with-parent --cap-drop CAP_SYS_NICE \\
  -- /bin/sh -c '"$0" "$ARGUS_NETNS_DIR/relay.js" "$ARGUS_NETNS_DIR/control.sock" "$ARGUS_NETNS_LAUNCH" 3>&- 4>&- </dev/null &
exec "$ARGUS_NETNS_CHROMIUM" "$@"' "$ARGUS_NETNS_NODE" "$@"
`;

/** CommonJS, run by the same node as Argus: argv is control socket, then port=socket pairs to open at once. */
export const RELAY_SCRIPT = `"use strict";
const net = require("node:net");
const [control, ...initial] = process.argv.slice(2);
const servers = new Map();
const link = net.connect(control);
const say = (message) => link.write(JSON.stringify(message) + "\\n");
link.on("error", () => process.exit(1));
link.on("close", () => process.exit(0));

const listen = (port, socketPath) => new Promise((resolve, reject) => {
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.on("error", () => upstream.destroy());
    // A reset, not a quiet close: Chromium then reports a failed connection, never an empty reply.
    upstream.on("error", () => client.resetAndDestroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.once("error", reject);
  server.listen(port, "127.0.0.1", () => resolve(server));
});

let buffered = "";
link.on("data", (chunk) => {
  buffered += chunk.toString();
  let newline;
  while ((newline = buffered.indexOf("\\n")) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    let order;
    try { order = JSON.parse(line); } catch { continue; }
    if (typeof order.open === "string" && typeof order.socket === "string") {
      listen(0, order.socket).then(
        (server) => { servers.set(order.open, server); say({ opened: order.open, port: server.address().port }); },
        (error) => say({ failed: order.open, error: String(error && error.message) }),
      );
    } else if (typeof order.close === "string") {
      servers.get(order.close)?.close();
      servers.delete(order.close);
    }
  }
});

link.once("connect", async () => {
  try {
    for (const pair of initial) {
      const at = pair.indexOf("=");
      servers.set(pair, await listen(Number(pair.slice(0, at)), pair.slice(at + 1)));
    }
    say({ ready: true });
  } catch (error) {
    link.end(JSON.stringify({ failed: "start", error: String(error && error.message) }) + "\\n");
  }
});
`;
