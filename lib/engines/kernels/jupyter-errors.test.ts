import { ServerConnection } from "@jupyterlab/services";
import { describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { explainJupyterError } from "./jupyter-errors";

describe("explainJupyterError", () => {
  it("names the token when the server refuses it, and the address when it cannot be reached", () => {
    const refused = explainJupyterError(new ServerConnection.ResponseError(new Response("Forbidden", { status: 403 })), "http://j:8888");
    expect(refused).toBeInstanceOf(ArgusError);
    expect((refused as Error).message).toMatch(/http:\/\/j:8888 refused Argus's token \(HTTP 403\).*Set JUPYTER_TOKEN/);
    const unreachable = explainJupyterError(new ServerConnection.NetworkError(new TypeError("fetch failed")), "http://j:8888/");
    expect((unreachable as Error).message).toMatch(/cannot reach the Jupyter server at http:\/\/j:8888 \(fetch failed\).*JUPYTER_URL/);
  });

  it("says in plain words that the server failed, with its own words for the operator", () => {
    const failed = explainJupyterError(new ServerConnection.ResponseError(new Response("{}", { status: 500 }), "Unhandled error"), "http://j:8888/");
    expect(failed).toBeInstanceOf(ArgusError);
    expect((failed as ArgusError).code).toBe("unavailable:jupyter");
    expect((failed as Error).message).toMatch(/Jupyter server at http:\/\/j:8888 failed .*\(HTTP 500: Unhandled error\).*Try again in a moment/);
  });

  it("passes other failures through", () => {
    const other = new ServerConnection.ResponseError(new Response("no", { status: 404 }));
    expect(explainJupyterError(other, "http://j")).toBe(other);
    const plain = new Error("x");
    expect(explainJupyterError(plain, "http://j")).toBe(plain);
  });
});
