import { setTimeout as sleep } from "node:timers/promises";
import { ServerConnection } from "@jupyterlab/services";

/** A Jupyter server (or a proxy before it) answered with a 5xx: its own failure, not Argus's request. */
export function isJupyterServerError(error: unknown): error is ServerConnection.ResponseError {
  return error instanceof ServerConnection.ResponseError && error.response.status >= 500;
}

/**
 * Calls once more, after `waitMs`, when the Jupyter server failed the first call with a 5xx.
 * Under heavy load jupyter-server answers a kernel start it could not finish in time with
 * HTTP 500 "Unhandled error"; a second try a moment later usually succeeds, where giving up
 * ended the person's run. Anything else (a refused token, an unreachable server, a 404) is
 * not retried: it would fail the same way.
 */
export async function onceMoreOnServerError<T>(call: () => Promise<T>, waitMs = 1000): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isJupyterServerError(error)) throw error;
    await sleep(waitMs);
    return call();
  }
}
