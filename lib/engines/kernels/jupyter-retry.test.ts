import { ServerConnection } from "@jupyterlab/services";
import { describe, expect, it } from "vitest";
import { isJupyterServerError, onceMoreOnServerError } from "./jupyter-retry";

const answer = (status: number) => new ServerConnection.ResponseError(new Response("{}", { status }), "Unhandled error");

/** A call that fails with the given errors in turn, then returns "ok"; counts its calls. */
function failing(...errors: unknown[]) {
  let calls = 0;
  const call = async () => {
    const error = errors[calls++];
    if (error !== undefined) throw error;
    return "ok";
  };
  return { call, calls: () => calls };
}

describe("onceMoreOnServerError", () => {
  it("tries once more after a 5xx and returns the second answer", async () => {
    for (const status of [500, 502, 503]) {
      const f = failing(answer(status));
      await expect(onceMoreOnServerError(f.call, 0)).resolves.toBe("ok");
      expect(f.calls()).toBe(2);
    }
  });

  it("gives up after the second 5xx, with that error", async () => {
    const second = answer(500);
    const f = failing(answer(500), second);
    await expect(onceMoreOnServerError(f.call, 0)).rejects.toBe(second);
    expect(f.calls()).toBe(2);
  });

  it("does not retry what would fail the same way: 4xx, network errors, anything else", async () => {
    for (const error of [answer(403), answer(404), new ServerConnection.NetworkError(new TypeError("fetch failed")), new Error("x")]) {
      const f = failing(error);
      await expect(onceMoreOnServerError(f.call, 0)).rejects.toBe(error);
      expect(f.calls()).toBe(1);
    }
  });

  it("tells a server's own failure from the rest", () => {
    expect(isJupyterServerError(answer(500))).toBe(true);
    expect(isJupyterServerError(answer(499))).toBe(false);
    expect(isJupyterServerError(new Error("Unhandled error"))).toBe(false);
  });
});
