import { ServerConnection } from "@jupyterlab/services";
import { ArgusError } from "@/lib/foundation/errors";

/**
 * What went wrong talking to the Jupyter server, in words a person can act on: a refused token
 * and an unreachable server are the two mistakes of a hand-configured JUPYTER_URL. Anything else
 * passes through unchanged. A 5xx reaches here only after jupyter-retry.ts tried once more.
 */
export function explainJupyterError(error: unknown, serverUrl: string): unknown {
  // services' settings end the address with a slash; people wrote it without one.
  const baseUrl = serverUrl.replace(/\/+$/, "");
  if (error instanceof ServerConnection.ResponseError) {
    const status = error.response.status;
    if (status === 401 || status === 403) {
      return new ArgusError(
        "unavailable:jupyter",
        `The Jupyter server at ${baseUrl} refused Argus's token (HTTP ${status}), so no notebook can start. Set JUPYTER_TOKEN to that server's token.`,
      );
    }
    if (status >= 500) {
      // jupyter-server's own failure ("Unhandled error" and a traceback in its log): the person
      // gets what happened and what to do, the operator the server's words to look for.
      return new ArgusError(
        "unavailable:jupyter",
        `The Jupyter server at ${baseUrl} failed while Argus asked it for a notebook (HTTP ${status}: ${error.message}), twice in a row. Try again in a moment; if it keeps happening, the Jupyter server's log says why.`,
      );
    }
    return error;
  }
  if (error instanceof ServerConnection.NetworkError) {
    return new ArgusError(
      "unavailable:jupyter",
      `Argus cannot reach the Jupyter server at ${baseUrl} (${error.message}), so no notebook can start. Check that it is running and that JUPYTER_URL is right.`,
    );
  }
  return error;
}
