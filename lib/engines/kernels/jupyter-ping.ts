import { connect } from "node:net";

/**
 * Whether the server is up, and takes our token. Asks `/api/kernelspecs`, not `/api/status`:
 * jupyter-server's status handler lists the kernels and fails with a 500 while one is starting
 * (its manager has no `last_activity` yet), so right after a restart, when sessions get new
 * kernels, health said "down". A server too busy to answer in time (a loaded machine) is still
 * up when it accepts a connection; only one that refuses or errors is down.
 */
export async function ping(endpoint: { baseUrl: string; token: string }, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint.baseUrl}/api/kernelspecs`, {
      headers: { authorization: `token ${endpoint.token}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.ok;
  } catch (error) {
    return (error as { name?: string }).name === "TimeoutError" && (await acceptsConnections(endpoint.baseUrl, timeoutMs));
  }
}

/** A TCP connect to the server's port: the kernel completes it even while the server's own loop is busy. */
function acceptsConnections(baseUrl: string, timeoutMs: number): Promise<boolean> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}
